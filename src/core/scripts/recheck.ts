/**
 * A step's inline commands once their `${…}` have values: what must be checked again before they are
 * sent. The script's checks passed everything else before the run (a problem at a `${…}` waits for
 * its value), so only what a substitution can change is looked at, on the value, without a text round
 * trip:
 * - the schema, on the whole value (cheap; it also covers the commandId and userId the run adds);
 * - the Daml arguments of the commands that hold a `${…}`, whole (a value can decide how a sibling
 *   is read, as a variant's tag does); the other commands' were checked before the run.
 * The rest of the text check a substitution cannot make fail: a captured value is parsed JSON, so
 * its objects have no repeated keys and a double holds its numbers. What it can, goes to the text
 * check: a `${…}` in a key (two keys could become one), an integer beyond 2^53 (it could be outside
 * int64), a string that is a new file's template-id placeholder. So does a value that does not pass,
 * and the text check says what is wrong and where.
 */
import type { ArgumentContext } from '../files/argumentChecks';
import type { CommandSite } from '../files/customChecks';
import { isJsonObject } from '../files/jsonDocument';
import { TEMPLATE_ID_PLACEHOLDER } from '../files/placeholders';
import { commandsValuePasses } from '../files/validate';
import { joinPointer } from '../jsonPointer';
import { forEachReferencedString } from './script';

/**
 * True when `value` (the step's commands, `written` with its `${…}` replaced and the run's commandId
 * and userId added) can be sent as it is; false when it must be checked as text. `everyCommand`: the
 * Daml arguments of every command are checked, not only of those that hold a `${…}`;
 * `onArgumentsChecked` is called for each command whose arguments are.
 */
export function substitutedCommandsPass(written: unknown, value: unknown, packages: ArgumentContext | undefined, everyCommand = false, onArgumentsChecked?: () => void): boolean {
  const pointers: string[] = [];
  let text = false;
  forEachReferencedString(written, (path, inKey) => {
    // Without a `${…}` in a key, what was written and what it became have the same shape.
    text ||= inKey || needsText(path.reduce<unknown>((v, segment) => (v as Record<string | number, unknown> | undefined)?.[segment], value));
    pointers.push(path.reduce<string>(joinPointer, ''));
  });
  if (text) return false;
  return commandsValuePasses(value, packages, (site) => {
    const checked = everyCommand || pointers.some((p) => within(p, site.pointer) || within(site.pointer, p));
    if (checked) onArgumentsChecked?.();
    return checked;
  });
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
