/**
 * A step's inline commands once their `${…}` have values: what must be checked again before they are
 * sent. The script's checks passed everything else before the run (a problem at a `${…}` waits for
 * its value), so only what a substitution can change is looked at, on the value, without a text round
 * trip:
 * - the schema, on the whole value (cheap; it also covers the commandId and userId the run adds);
 * - the Daml arguments of the commands that hold a `${…}`, whole (a value can decide how a sibling
 *   is read, as a variant's tag does); the other commands' were checked before the run.
 * What else the text check sees is what a substitution cannot bring, or goes to the text check: a
 * captured value is parsed JSON, so its objects have no repeated keys (a `${…}` in a key could make
 * two keys one), a double holds its numbers (an integer beyond 2^53 could be outside int64), and it
 * is not the template-id placeholder of a new file unless it says so. A value that does not pass goes
 * to the text check too, which says what is wrong and where.
 */
import type { ArgumentContext } from '../files/argumentChecks';
import type { CommandSite } from '../files/customChecks';
import { isJsonObject } from '../files/jsonDocument';
import { TEMPLATE_ID_PLACEHOLDER } from '../files/placeholders';
import { commandsValuePasses } from '../files/validate';
import { joinPointer } from '../jsonPointer';
import { hasReference } from './script';

/** How often the runner checked a step's commands again, and how (tests read it to see that work is skipped). */
export const recheckCounts = { commandArguments: 0 };

/** Where the `${…}` of a step's commands were, and whether any could change what the value check sees. */
interface Substitutions {
  /** Pointers of the strings that held a `${…}`. */
  pointers: string[];
  /** A `${…}` in a key, or put in by one: an integer a double does not hold exactly, or the template-id placeholder. */
  needsText: boolean;
}

/**
 * True when `value` (the step's commands, `written` with its `${…}` replaced and the run's commandId
 * and userId added) can be sent as it is; false when it must be checked as text.
 */
export function substitutedCommandsPass(written: unknown, value: unknown, packages: ArgumentContext | undefined): boolean {
  const found: Substitutions = { pointers: [], needsText: false };
  substitutionsIn(written, value, '', found);
  if (found.needsText) return false;
  const { pointers } = found;
  return commandsValuePasses(value, packages, (site) => {
    if (!pointers.some((p) => within(p, site.pointer) || within(site.pointer, p))) return false;
    recheckCounts.commandArguments++;
    return true;
  });
}

/** Walks what was written and what it became side by side (without a `${…}` in a key, they have the same shape). */
function substitutionsIn(written: unknown, value: unknown, pointer: string, found: Substitutions): void {
  if (typeof written === 'string') {
    if (!hasReference(written)) return;
    found.pointers.push(pointer);
    if (needsText(value)) found.needsText = true;
  } else if (Array.isArray(written)) {
    if (!Array.isArray(value)) return;
    for (let i = 0; i < written.length; i++) substitutionsIn(written[i], value[i], joinPointer(pointer, i), found);
  } else if (isJsonObject(written) && isJsonObject(value)) {
    for (const key of Object.keys(written)) {
      if (hasReference(key)) found.needsText = true;
      else substitutionsIn(written[key], value[key], joinPointer(pointer, key), found);
    }
  }
}

function needsText(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (typeof value === 'string') return value === TEMPLATE_ID_PLACEHOLDER;
  if (Array.isArray(value)) return value.some(needsText);
  return isJsonObject(value) && Object.values(value).some(needsText);
}

/** `pointer` is `ancestor` or below it. */
function within(pointer: string, ancestor: string): boolean {
  return pointer === ancestor || pointer.startsWith(`${ancestor}/`);
}
