/**
 * Prompt templates: each `<name>.md` of a prompts folder is the command `/<name>`; its front matter's
 * `description` describes it (else its first line does). The text after the header is the prompt, with
 * `$1`…`$9` the arguments by position, `$@` all of them joined by spaces, `$ARGUMENTS` the argument text as typed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { z } from "@keel/extensions-api";
import { lazySchema } from "@keel/extensions-api/lazy-schema";
import { substituteArguments } from "@keel/formats/expand";
import { readHeader } from "@keel/front-matter";
import type { Source } from "./sources.ts";

export interface Template {
  name: string;
  description: string;
  path: string;
  body: string;
  origin: string;
}

/** Built when the first template is read (most runs have none). */
export const TemplateHeader = lazySchema(() => z.object({ description: z.string().trim().min(1).optional() }).loose());

function markdownFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(".md"))
      .sort();
  } catch {
    return [];
  }
}

/** Every template of `sources`, the first of each name winning. */
export async function discoverTemplates(sources: readonly Source[], problems: string[]): Promise<Template[]> {
  const found = new Map<string, Template>();
  for (const source of sources) {
    for (const file of markdownFiles(source.dir)) {
      const name = basename(file, ".md");
      const path = join(source.dir, file);
      if (!/^[A-Za-z0-9][\w-]*$/.test(name)) {
        problems.push(
          `${path}: a template's file name becomes its /command, so it may hold only letters, digits, _ and -; skipped`,
        );
        continue;
      }
      const earlier = found.get(name);
      if (earlier) {
        problems.push(`prompt template /${name} in ${path} is hidden by the one in ${earlier.path}`);
        continue;
      }
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch (error) {
        problems.push(`could not read ${path} (${(error as NodeJS.ErrnoException).code}); skipped`);
        continue;
      }
      const header = await readHeader(text, path, TemplateHeader, problems);
      if (!header) continue;
      const body = header.body.trim();
      const firstLine = body.split("\n", 1)[0]!.slice(0, 80);
      const description = header.data.description ?? (firstLine || `prompt template from ${source.origin}`);
      found.set(name, { name, description, path, body, origin: source.origin });
    }
  }
  return [...found.values()];
}

/** The template's text with its arguments in place; one pass, so an argument's own `$1` stays as typed. */
export function expandTemplate(body: string, line: string): string {
  return substituteArguments(body, line);
}
