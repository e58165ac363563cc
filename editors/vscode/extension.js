// Starts `rulecraft lsp` for rule files and the YAML beside them.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("rulecraft");
  const command = config.get("server.command", "rulecraft");
  const args = config.get("server.args", ["lsp"]);
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  const server = {
    command,
    args,
    transport: TransportKind.stdio,
    // error positions are shown relative to the server's working directory
    options: folder ? { cwd: folder.uri.fsPath } : {},
  };
  client = new LanguageClient("rulecraft", "rulecraft rules", server, {
    documentSelector: [
      { scheme: "file", language: "rulecraft-rules" },
      // a rule set's YAML: the server answers only for folders that hold a rule set
      { scheme: "file", language: "yaml" },
    ],
  });
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
