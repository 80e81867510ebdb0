/**
 * One session: its conversation, the prompt box (send; while a run goes, steer or abort), the model and
 * thinking pickers, and the first open question as a dialog. Renders at most once a frame, however fast the
 * reply streams.
 */
import type { Message, ModelInfo } from "@keel/extensions-api";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { Connection, type ServerMessage } from "./connection.ts";
import { Conversation, type View } from "./conversation.ts";
import { Messages } from "./messages.tsx";
import { ModelPicker, ThinkingPicker } from "./pickers.tsx";
import { PromptBox } from "./prompt-box.tsx";
import { QuestionDialog } from "./question-dialog.tsx";
import { SESSIONS_CHANGED } from "./sessions.tsx";

interface State {
  model: ModelInfo | null;
  thinking: string | null;
  isRunning: boolean;
  messageCount: number;
}

export function SessionView(props: { id: string }) {
  const conversation = useMemo(() => new Conversation(), [props.id]);
  const [view, setView] = useState<View>(conversation.view);
  const [connected, setConnected] = useState(false);
  const [state, setState] = useState<State | undefined>();
  const [models, setModels] = useState<ModelInfo[]>([]);
  const [error, setError] = useState<string | undefined>();
  const connection = useRef<Connection | undefined>(undefined);
  const end = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let frame = 0;
    const redraw = () => {
      frame = 0;
      setView(conversation.view);
    };
    const receive = (message: ServerMessage) => {
      if (message.type === "welcome" && !message.resumed) void load();
      conversation.apply(message);
      if (message.type === "agent_end" || message.type === "agent_start") {
        void refreshState();
        dispatchEvent(new Event(SESSIONS_CHANGED));
      }
      frame ||= requestAnimationFrame(redraw);
    };
    const link = new Connection(props.id, receive, setConnected);
    connection.current = link;
    const refreshState = async () => setState((await link.request("get_state")).data as State);
    const load = async () => {
      conversation.loading();
      try {
        const [{ data, seq }] = await Promise.all([link.request("get_messages"), refreshState()]);
        conversation.reset((data as { messages: Message[] }).messages, false, seq);
        setView(conversation.view);
        setModels(((await link.request("get_models")).data as { models: ModelInfo[] }).models);
      } catch (e) {
        setError((e as Error).message);
      }
    };
    return () => {
      link.close();
      cancelAnimationFrame(frame);
    };
  }, [props.id]);

  useEffect(() => end.current?.scrollIntoView({ block: "end" }), [view.messages.length, view.streaming]);

  const run = async (type: string, fields: Record<string, unknown> = {}) => {
    setError(undefined);
    try {
      return (await connection.current!.request(type, fields)).data;
    } catch (e) {
      setError((e as Error).message);
      return undefined;
    }
  };
  const running = view.running || state?.isRunning === true;
  const question = view.questions[0];

  return (
    <main class="session" data-session={props.id} data-connected={connected}>
      <header class="toolbar">
        <ModelPicker
          models={models}
          current={state?.model ?? null}
          choose={async (m) => (await run("set_model", { provider: m.provider, modelId: m.id })) && (await refresh())}
        />
        <ThinkingPicker
          level={state?.thinking ?? null}
          choose={async (level) => (await run("set_thinking", { level })) && (await refresh())}
        />
        <span class={`dot ${connected ? "on" : "off"}`} title={connected ? "connected" : "reconnecting"} />
      </header>
      <div class="scroll">
        <Messages messages={view.messages} streaming={view.streaming} tools={view.tools} />
        {view.notices.length > 0 && (
          <ul class="notices">
            {view.notices.map((n, i) => (
              <li key={i} class={n.level}>
                {n.text}
              </li>
            ))}
          </ul>
        )}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <div ref={end} />
      </div>
      <PromptBox
        running={running}
        send={(message) => run("prompt", { message })}
        steer={(message) => run("steer", { message })}
        abort={() => run("abort")}
      />
      {question && (
        <QuestionDialog
          key={question.id}
          question={question}
          answer={(answer) => connection.current!.answer(question.id, answer)}
        />
      )}
    </main>
  );

  async function refresh() {
    const data = await run("get_state");
    if (data) setState(data as State);
  }
}
