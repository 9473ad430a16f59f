import assert from 'node:assert/strict';
import { VALUE_PROBLEM_CODES } from '../../../src/core/daml/jsonEncoding';
import { PROBLEM_CODES, validateText } from '../../../src/core/files/validate';
import { exampleRequests, invalidCorpus, validCorpus } from '../../fixtures/files/corpus';
import { requireSpec } from '../../support/spec';

describe('schema: file corpus', () => {
  describe('valid files have no problems and parse to their JSON', () => {
    for (const file of validCorpus()) {
      it(file.name, () => {
        const result = validateText(file.kind, file.text);
        assert.deepEqual(result.problems, []);
        assert.deepEqual(result.value, JSON.parse(file.text));
      });
    }
  });

  it('the Canton docs\' submit-and-wait-for-transaction examples are valid full-request commands files', function () {
    requireSpec(this);
    const examples = exampleRequests();
    assert.ok(examples.length >= 3, `expected the 3 examples, found ${examples.length}`);
    for (const example of examples) {
      assert.deepEqual(validateText('commands', example.text).problems, [], example.name);
    }
  });

  describe('invalid files report exactly their expected problems', () => {
    for (const file of invalidCorpus()) {
      it(file.name, () => {
        assert.ok(file.expected.length > 0, 'an invalid file must expect at least one problem');
        const actual = validateText(file.kind, file.text).problems.map(({ line, column, code }) => ({ line, column, code }));
        assert.deepEqual(actual, file.expected);
      });
    }
  });

  it('the invalid files exercise every problem code', () => {
    const seen = new Set(invalidCorpus().flatMap((file) => file.expected.map((p) => p.code)));
    // Only a bug of the checks yields check-failed: no file may (schema.numbers.test.ts provokes it).
    const noFileMay = ['check-failed'];
    // The corpus is checked without packages; the codes of Daml arguments need them and are exercised
    // against the shared DARs (schema.arguments.test.ts, daml/jsonEncoding.test.ts) and a participant
    // with a package it cannot serve (cli/validate.test.ts).
    const needPackages = new Set<string>(['arguments-unchecked', 'unknown-template', 'unknown-choice', 'package-unreadable', ...VALUE_PROBLEM_CODES]);
    // The pre-flight's codes need participants to ask: exercised on the demo network (network/preflight.test.ts, network/vettingDryRun.test.ts).
    const needNetwork = ['preflight-version', 'preflight-no-version', 'preflight-unchecked', 'vetting-loss'];
    assert.deepEqual(PROBLEM_CODES.filter((code) => !seen.has(code) && !noFileMay.includes(code) && !needPackages.has(code) && !needNetwork.includes(code)), []);
  });
});
