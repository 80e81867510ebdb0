/**
 * A mode (a UI for the session): `keel --mode report -p "<prompt>"` runs the prompt and prints one Markdown
 * report on stdout: the answer, then each tool call with whether it failed. A mode gets the runtime and the
 * prompt, drives the run itself (here: one prompt, its result read afterwards), and resolves the exit code.
 */
import { definePlugin, textOf } from "@keel/extensions-api";

export default definePlugin({
  activate(api) {
    api.registerMode({
      name: "report",
      description: "run the prompt and print the answer and the tools used, as Markdown",
      async run(runtime, { prompt }) {
        if (!prompt) {
          process.stderr.write('keel: the report mode needs a prompt: keel --mode report -p "<prompt>"\n');
          return 2;
        }
        const result = await runtime.prompt(prompt);
        // The run's tool results, in the order the model called the tools.
        const tools = result.messages.flatMap((m) =>
          m.role === "toolResult"
            ? [`- \`${m.toolName}\`${m.isError ? ` failed: ${textOf(m).split("\n")[0]}` : ""}`]
            : [],
        );
        const lines = [
          "# Answer",
          "",
          result.finalText || "(no answer)",
          "",
          "# Tools",
          "",
          ...(tools.length ? tools : ["(none)"]),
        ];
        if (result.reason !== "stop")
          lines.push(
            "",
            `The run ended early: ${result.reason}${result.errorMessage ? ` (${result.errorMessage})` : ""}.`,
          );
        process.stdout.write(`${lines.join("\n")}\n`);
        return result.reason === "stop" ? 0 : 1;
      },
    });
  },
});
