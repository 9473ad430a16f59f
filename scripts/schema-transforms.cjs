// Schema transforms shared by scripts/build-schemas.mjs and the tests that check its output.
'use strict';

/** Keys whose value maps names to schemas (the names are data, not keywords). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies', 'dependentSchemas']);
/** Keys whose value is data, never a schema. */
const DATA = new Set(['enum', 'const', 'default', 'examples', 'required', 'defaultSnippets']);

/**
 * A copy of `schema` without the given keywords anywhere a schema appears (property names that happen
 * to equal a keyword are kept). Validation is unchanged when the keywords are annotations only.
 */
function withoutKeywords(schema, keywords) {
  const drop = new Set(keywords);
  const walk = (node) => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (drop.has(key)) continue;
      if (DATA.has(key)) out[key] = value;
      else if (SCHEMA_MAPS.has(key) && value && typeof value === 'object' && !Array.isArray(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, Array.isArray(sub) ? sub : walk(sub)]));
      } else out[key] = walk(value);
    }
    return out;
  };
  return walk(schema);
}

module.exports = { withoutKeywords };
