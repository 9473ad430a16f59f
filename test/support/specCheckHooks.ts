/** Root hooks: a test fails when any checked demo participant had an exchange the spec does not allow during it. */
import { assertNoSpecViolations } from './specCheck';

export const mochaHooks = {
  afterEach(): void {
    assertNoSpecViolations();
  },
};
