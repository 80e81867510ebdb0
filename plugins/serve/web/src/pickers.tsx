/** The model and thinking pickers: they change what the session's next request asks for. */
import type { ModelInfo } from "@keel/extensions-api";

const LEVELS = ["off", "minimal", "low", "medium", "high"];

export function ModelPicker(props: { models: ModelInfo[]; current: ModelInfo | null; choose(m: ModelInfo): void }) {
  const key = (m: ModelInfo) => `${m.provider}/${m.id}`;
  const current = props.current ? key(props.current) : "";
  const known = props.models.some((m) => key(m) === current);
  return (
    <label class="picker">
      Model
      <select
        value={current}
        onChange={(event) => {
          const chosen = props.models.find((m) => key(m) === event.currentTarget.value);
          if (chosen) props.choose(chosen);
        }}
      >
        {!known && <option value={current}>{current || "none"}</option>}
        {props.models.map((m) => (
          <option key={key(m)} value={key(m)}>
            {m.name ? `${m.name} (${key(m)})` : key(m)}
          </option>
        ))}
      </select>
    </label>
  );
}

export function ThinkingPicker(props: { level: string | null; choose(level: string | null): void }) {
  return (
    <label class="picker">
      Thinking
      <select
        value={props.level ?? ""}
        onChange={(event) => props.choose(event.currentTarget.value === "" ? null : event.currentTarget.value)}
      >
        <option value="">default</option>
        {LEVELS.map((level) => (
          <option key={level} value={level}>
            {level}
          </option>
        ))}
      </select>
    </label>
  );
}
