/**
 * A slash command: `/stats` counts what this session holds — messages by role, tool calls, failed tool
 * results, and the tokens the provider reported — and shows it as a notice. A command gets its argument text
 * and the runtime; it reports through `runtime.notify`, which every UI shows its own way.
 */
import { definePlugin, toolCallsOf } from "@keel/extensions-api";

export default definePlugin({
  activate(api) {
    api.registerCommand({
      name: "/stats",
      description: "Count the messages, tool calls and tokens of this session.",
      run(_args, runtime) {
        const count = { user: 0, assistant: 0, toolCalls: 0, failedTools: 0, input: 0, output: 0 };
        for (const m of runtime.messages) {
          if (m.role === "user") count.user++;
          else if (m.role === "toolResult") count.failedTools += m.isError ? 1 : 0;
          else {
            count.assistant++;
            count.toolCalls += toolCallsOf(m).length;
            count.input += m.usage.input;
            count.output += m.usage.output;
          }
        }
        runtime.notify(
          `${count.user} user and ${count.assistant} assistant messages; ${count.toolCalls} tool ` +
            `calls (${count.failedTools} failed); ` +
            `${count.input} input and ${count.output} output tokens reported.`,
        );
      },
    });
  },
});
