/** What `api.log` offers a plugin: `debug`/`info` go to stderr under `KEEL_DEBUG=1`. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  /** Also published as a `plugin_warning` event. */
  warn(message: string): void;
  /** Also published as a `plugin_error` event. */
  error(message: string): void;
}
