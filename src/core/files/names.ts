/** Old (Daml 2.x / early Canton) field names that Canton 3.x silently ignores, and their replacements. */
export const RENAMED_FIELDS: Readonly<Record<string, string>> = {
  applicationId: 'userId',
  domainId: 'synchronizerId',
};
