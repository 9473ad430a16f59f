// Where a contract id goes in a commands file, and which contracts fit there (the completion then lists
// the connection's active contracts of that template or interface instead of the document's words).
import assert from 'node:assert/strict';
import { PackageIndex } from '../../../src/core/daml/packageIndex';
import type { ArgumentContext } from '../../../src/core/files/argumentChecks';
import { contractIdSlotAt } from '../../../src/core/files/damlAssist';
import { DARS, requireDar } from '../../support/dars';

const ALICE = 'Alice::1220aa';

function at(marked: string): [string, number] {
  return [marked.replace('‸', ''), marked.indexOf('‸')];
}
function commands(command: string): string {
  return `{"commandId": "c", "actAs": ["${ALICE}"], "commands": [{${command}}]}`;
}

describe('core: where a contract id goes', () => {
  let definitions: ArgumentContext;
  before(function () {
    definitions = { packages: new PackageIndex(requireDar(this, DARS.definitions).packages), source: 'in the definitions DAR' };
  });

  it('an ExerciseCommand’s contractId takes a contract of the command’s template, with or without packages', () => {
    const [text, offset] = at(commands(`"ExerciseCommand": {"templateId": "#demo-iou:Iou:Iou", "contractId": "00a‸", "choice": "Iou_Transfer", "choiceArgument": {}}`));
    const slot = contractIdSlotAt(text, offset);
    assert.equal(slot?.templateId, '#demo-iou:Iou:Iou');
    assert.equal(text.slice(slot!.replace!.offset, slot!.replace!.offset + slot!.replace!.length), '"00a"');
    const [empty, emptyOffset] = at(commands(`"ExerciseCommand": {"templateId": "#demo-iou:Iou:Iou", "contractId": ‸, "choice": "Iou_Transfer"}`));
    assert.equal(contractIdSlotAt(empty, emptyOffset)?.templateId, '#demo-iou:Iou:Iou');
    // Without a template yet: still a contract id's place (the completion says what is missing).
    const [bare, bareOffset] = at(commands(`"ExerciseCommand": {"contractId": "‸"}`));
    assert.deepEqual(Object.keys(contractIdSlotAt(bare, bareOffset)!), ['replace']);
  });

  it('an argument of type ContractId T takes contracts of T: a template, or an interface', () => {
    const [text, offset] = at(commands(`"CreateCommand": {"templateId": "#DamlDefinitionsServiceDep:ExternalDep:TemplateBar", "createArguments": {"firstTemplateRef": "‸"}}`));
    assert.equal(contractIdSlotAt(text, offset, definitions)?.templateId, '#DamlDefinitionsServiceDep:ExternalDep:TemplateFoo');
    const [iface, ifaceOffset] = at(commands(`"CreateCommand": {"templateId": "#DamlDefinitionsServiceMain:MainApp:MainTemplate", "createArguments": {"externalInterface": "‸"}}`));
    const slot = contractIdSlotAt(iface, ifaceOffset, definitions);
    assert.ok(slot?.interfaceId?.endsWith(':MyInterface'), JSON.stringify(slot));
    assert.equal(slot?.templateId, undefined);
  });

  it('nowhere else: another field’s value, a key, the command’s other fields', () => {
    const cases = [
      commands(`"CreateCommand": {"templateId": "#DamlDefinitionsServiceDep:ExternalDep:TemplateBar", "createArguments": {"‸": 1}}`),
      commands(`"ExerciseCommand": {"templateId": "#demo-iou:Iou:Iou", "contractId": "00", "choice": "‸"}`),
      commands(`"ExerciseCommand": {"templateId": "‸", "contractId": "00"}`),
      `{"commandId": "‸"}`,
    ];
    for (const marked of cases) {
      const [text, offset] = at(marked);
      assert.equal(contractIdSlotAt(text, offset, definitions), undefined, marked);
    }
  });
});
