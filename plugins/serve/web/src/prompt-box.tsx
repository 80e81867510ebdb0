/**
 * The prompt box: Enter sends (Shift+Enter is a new line). While a run goes, what is typed steers it (enters
 * at its next turn), and Abort stops it.
 */
import { useState } from "preact/hooks";

export function PromptBox(props: {
  running: boolean;
  send(message: string): unknown;
  steer(message: string): unknown;
  abort(): unknown;
}) {
  const [text, setText] = useState("");
  const submit = () => {
    const message = text.trim();
    if (!message) return;
    setText("");
    void (props.running ? props.steer(message) : props.send(message));
  };
  return (
    <form
      class="prompt"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <textarea
        aria-label="Prompt"
        placeholder={props.running ? "Steer the run: it reads this at its next turn" : "Ask keel…"}
        value={text}
        rows={3}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <div class="buttons">
        <button type="submit">{props.running ? "Steer" : "Send"}</button>
        {props.running && (
          <button type="button" class="danger" onClick={() => void props.abort()}>
            Abort
          </button>
        )}
      </div>
    </form>
  );
}
