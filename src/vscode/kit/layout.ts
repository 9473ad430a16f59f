// Where a result the user reads (a preview, a submission's transaction, a report) opens. VS Code
// splits the editor area evenly: beside one column leaves two halves, wide enough to read; beside a
// second makes thirds, too narrow for a report's headings. So: beside only while there is one column;
// with more, in a column that is already there, leaving alone what the caller must keep in view.
import vscode = require('vscode');

/** The editor area's columns, left to right, and the one the user works in. */
function editorColumns(): { columns: vscode.ViewColumn[]; active: vscode.ViewColumn | undefined } {
  const groups = vscode.window.tabGroups;
  const columns = groups.all.filter((g) => g.tabs.length > 0).map((g) => g.viewColumn);
  return { columns: [...new Set(columns)].sort((a, b) => a - b), active: groups.activeTabGroup.tabs.length > 0 ? groups.activeTabGroup.viewColumn : undefined };
}

/**
 * The column to open something to read in: with nothing open, the editor area itself; beside the one
 * column there is; else an existing column other than the active one and other than `keep` (the
 * nearest to the right, then to the left), and the active one only when all others are to be kept.
 */
export function readableColumn(keep: readonly vscode.ViewColumn[] = []): vscode.ViewColumn {
  const { columns, active } = editorColumns();
  if (columns.length === 0 || active === undefined) return vscode.ViewColumn.Active;
  if (columns.length === 1) return vscode.ViewColumn.Beside;
  const others = columns.filter((c) => c !== active && !keep.includes(c));
  const right = others.find((c) => c > active);
  if (right !== undefined) return right;
  if (others.length > 0) return others[others.length - 1];
  return keep.includes(active) ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
}

/** The columns whose visible editor shows a document `shows` picks. */
export function columnsShowing(shows: (uri: vscode.Uri) => boolean): vscode.ViewColumn[] {
  const columns = vscode.window.visibleTextEditors.filter((e) => e.viewColumn !== undefined && shows(e.document.uri)).map((e) => e.viewColumn!);
  return [...new Set(columns)];
}
