import vscode = require('vscode');
import { MemoryDocuments } from '../../kit/documents';
import { readableColumn } from '../../kit/layout';
import { REPORT_SCHEME } from '../../kit/schemes';

export { REPORT_SCHEME } from '../../kit/schemes';

/**
 * Read-only Markdown reports held in memory (MemoryDocuments): a stable path per report, so running the
 * same file again refreshes its tab.
 */
export class MarkdownReports extends MemoryDocuments {
  constructor(capacity = 50, scheme = REPORT_SCHEME, updateWaitMs?: number) {
    super(scheme, capacity, '_This report is no longer available: run it again._\n', updateWaitMs);
  }

  /**
   * Puts the report and opens it rendered where it can be read (layout.ts: beside the one column there
   * is, as a locked preview that stays on this report; else a full tab in an existing column, never a
   * third, narrow one); the preview's "Open Source" shows the text. The URI of the report (a text
   * document) is returned.
   */
  async show(name: string, markdown: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.from({ scheme: this.scheme, path: `/${name.replace(/[/\\?#]/g, '_')}.md` });
    this.putText(uri, markdown);
    await this.caughtUp(uri);
    // The built-in preview reads the virtual document through this provider, as any other Markdown file.
    const column = readableColumn();
    if (column === vscode.ViewColumn.Beside) {
      await vscode.commands.executeCommand('markdown.showLockedPreviewToSide', uri);
    } else {
      // The preview opens in the active column: make the chosen one active first.
      if (column !== vscode.ViewColumn.Active) await vscode.commands.executeCommand(focusGroupCommand(column));
      await vscode.commands.executeCommand('markdown.showPreview', uri);
    }
    return uri;
  }
}

const GROUP_ORDINALS = ['First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth', 'Seventh', 'Eighth'];

/** VS Code's command that focuses the editor group of `column` (1–8). */
function focusGroupCommand(column: vscode.ViewColumn): string {
  return `workbench.action.focus${GROUP_ORDINALS[Math.min(Math.max(column, 1), GROUP_ORDINALS.length) - 1]}EditorGroup`;
}
