/**
 * Root hooks: a test fails when any checked demo participant had an exchange the spec does not allow
 * during it, or when a LedgerClient sent a request the catalogue does not declare.
 */
import { assertRequestsCatalogued } from './catalogueCheck';
import { assertNoSpecViolations } from './specCheck';

export const mochaHooks = {
  afterEach(): void {
    assertNoSpecViolations();
    assertRequestsCatalogued();
  },
};
