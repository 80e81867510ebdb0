/**
 * A plugin's question (the permission prompt, an approval gate) as a modal dialog: confirm, select or input.
 * Any page on the session may answer; when one does, the server closes it everywhere.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { Question } from "./conversation.ts";

export type Answer = { value?: string; confirmed?: boolean; cancelled?: true };

export function QuestionDialog(props: { question: Question; answer: (answer: Answer) => void }) {
  const { question, answer } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState("");
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, [question.id]);
  return (
    <dialog
      ref={dialog}
      class="question"
      aria-labelledby={`q-${question.id}`}
      onCancel={(event) => (event.preventDefault(), answer({ cancelled: true }))}
    >
      <h2 id={`q-${question.id}`}>{question.title}</h2>
      {question.message && <p>{question.message}</p>}
      {question.method === "input" && (
        <input
          aria-label="Answer"
          placeholder={question.placeholder}
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => event.key === "Enter" && answer({ value: text })}
        />
      )}
      <div class="buttons">
        {question.method === "select" &&
          question.options!.map((option) => (
            <button key={option} type="button" onClick={() => answer({ value: option })}>
              {option}
            </button>
          ))}
        {question.method === "confirm" && (
          <>
            <button type="button" onClick={() => answer({ confirmed: true })}>
              Yes
            </button>
            <button type="button" onClick={() => answer({ confirmed: false })}>
              No
            </button>
          </>
        )}
        {question.method === "input" && (
          <button type="button" onClick={() => answer({ value: text })}>
            Answer
          </button>
        )}
        <button type="button" class="quiet" onClick={() => answer({ cancelled: true })}>
          Dismiss
        </button>
      </div>
    </dialog>
  );
}
