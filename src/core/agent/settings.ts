// The agent tools' settings (`cantonLedger.agentTools.*`), read the same way by the agent feature and
// by the entry's MCP server provider (which answers before any feature loads).

export interface AgentToolsSettings {
  enabled: boolean;
  allowWrites: boolean;
}

/** The keys under the `cantonLedger` section. */
export const AGENT_TOOLS_SETTINGS = { enabled: 'agentTools.enabled', allowWrites: 'agentTools.allowWrites' } as const;

/** The settings from the `cantonLedger` section, with their defaults (on, reads only). */
export function readAgentToolsSettings(config: { get<T>(key: string, defaultValue: T): T }): AgentToolsSettings {
  return { enabled: config.get<boolean>(AGENT_TOOLS_SETTINGS.enabled, true), allowWrites: config.get<boolean>(AGENT_TOOLS_SETTINGS.allowWrites, false) };
}
