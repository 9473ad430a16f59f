/** JSON pointers (RFC 6901): where in a document a problem or a value is. */

/** The unescaped segments of a pointer (`/a~1b/0` → `a/b`, `0`). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The pointer one segment further down, escaping `~` and `/`. */
export function joinPointer(pointer: string, segment: string | number): string {
  const s = String(segment);
  // Most segments (field names, indexes) have nothing to escape.
  if (!s.includes('~') && !s.includes('/')) return `${pointer}/${s}`;
  return `${pointer}/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}
