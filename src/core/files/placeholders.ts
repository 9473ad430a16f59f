/**
 * The values new files are written with where nothing better is known. Each names nothing on a
 * ledger, so the checks flag it until it is replaced: a file is never sent with one left in it.
 */

/** Values in angle brackets, which the schema's patterns refuse as they are. */
export const PLACEHOLDER = { userId: '<user-id>', party: '<party-id::1220…>', contractId: '<contract-id>' } as const;

/** The template id of the command in a new file: a valid form (so the rest of the file is checked), flagged until overwritten. */
export const TEMPLATE_ID_PLACEHOLDER = '#package-name:Module:Template';

/** The package a new vetting file vets: a valid name, flagged until overwritten. */
export const VETTING_PACKAGE_PLACEHOLDER = { packageName: 'package-name', packageVersion: '1.0.0' } as const;
