/**
 * What keel and a confined plugin's host process say to each other above the wire (wire.ts): the host says it
 * is ready with its `activate`; keel calls it once with everything the plugin may know, and tells it later what
 * only exists once a session does (the runtime, the plugin's session entries).
 */
import type { Message, PluginAPI, PluginEntry } from "@keel/extensions-api";
import type { RuntimeValues } from "./runtime-facade.js";
import type { Grants } from "./grants.js";

export interface ActivateRequest {
  /** keel's side of the plugin's API; every function crosses back to keel. */
  api: PluginAPI<unknown>;
  dir: string;
  entry: string;
  settingsKey: string;
  /** The plugin's settings section, validated there by its own schema. */
  section: unknown;
  /** The plugin's section in each settings layer, to name keys its schema lacks. */
  layers: { name: string; value: Record<string, unknown> | undefined }[];
  grants: Grants;
  /** Whether the host passes connections on to keel's proxy (bridge.ts): the plugin declared a host. */
  bridge: boolean;
  /** A call the sandbox refused: keel warns once, naming the plugin and the capability to declare. */
  denied(capability: string, detail: string): void;
  /** An error thrown from a timer or a rejection nobody handled: reported against the plugin, which runs on. */
  uncaught(error: unknown): void;
}

/** The host's first message. */
export interface ChildHello {
  ready: true;
  activate(request: ActivateRequest): Promise<{ problem?: string }>;
}

/** What keel tells the host as it becomes known. */
export interface ChildNotice {
  /** The runtime's methods (runtime-facade.ts), once per runtime. */
  runtimeMethods?: Record<string, unknown>;
  runtimeValues?: RuntimeValues;
  /** Messages of the history from index `messagesFrom` on. */
  messages?: readonly Message[];
  messagesFrom?: number;
  entries?: readonly PluginEntry[];
}
