/**
 * The YAML parser of participants' API descriptions. A bundle of its own (`dist/yaml.js`, see
 * `scripts/build.mjs`), required on the first description that is not JSON, so that the extension's
 * first use does not load it.
 */
import { parse } from 'yaml';

export function parseYaml(text: string): unknown {
  return parse(text, { uniqueKeys: false });
}
