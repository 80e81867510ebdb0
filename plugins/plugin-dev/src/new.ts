/**
 * `keel plugin new <name> --kind <kind>`: a package in the folder shape every keel plugin has (CONTRIBUTING.md):
 * the manifest, `src/index.ts` that only registers, `src/settings.ts`, a README, and a test that loads the
 * package through the test kit (`npm test`, Node's own runner). It needs only the published contract packages,
 * so it works outside keel's repository.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { API_VERSION, settingsKeyOf } from "@keel/extensions-api";
import { KINDS, type Kind } from "./kinds.ts";
import type { Names } from "./templates/template.ts";

const PACKAGE_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/;

/** The packages a generated plugin is tested with, at the versions this keel ships. */
export interface ContractVersions {
  extensionsApi: string;
  testing: string;
}

/** Writes the package into `parent/<name without scope>`; returns its folder, or why it cannot. */
export function newPlugin(
  name: string,
  kind: Kind,
  parent: string,
  versions: ContractVersions,
): { dir: string } | { problem: string } {
  if (!PACKAGE_NAME.test(name))
    return { problem: `"${name}" is not an npm package name (lower case, digits, - . _, optionally @scope/).` };
  const dir = join(parent, name.replace(/^@[^/]+\//, ""));
  if (existsSync(dir)) return { problem: `${dir} already exists; choose another name or remove it.` };
  const id = settingsKeyOf({ name, keel: {} });
  const names: Names = { name, id, tool: id.replace(/[^A-Za-z0-9_]/g, "_") };
  const template = KINDS[kind];
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify(packageJson(names, kind, versions), null, 2)}\n`,
    "src/index.ts": template.entry(names),
    "src/settings.ts": template.settings(names),
    "test/plugin.test.js": template.test(names),
    "README.md": readme(names, kind),
    ".gitignore": "node_modules/\n*.tgz\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir };
}

function packageJson(names: Names, kind: Kind, versions: ContractVersions): Record<string, unknown> {
  const template = KINDS[kind];
  const [major] = API_VERSION.split(".");
  return {
    name: names.name,
    version: "0.1.0",
    description: `A keel plugin: ${template.summary}.`,
    type: "module",
    license: "MIT",
    keywords: ["keel-plugin"],
    files: ["src", "README.md"],
    scripts: { test: "node --test" },
    peerDependencies: { "@keel/extensions-api": `^${major}.0.0` },
    devDependencies: { "@keel/extensions-api": versions.extensionsApi, "@keel/testing": versions.testing },
    keel: {
      apiVersion: `^${major}.0.0`,
      entry: "./src/index.ts",
      contributes: template.contributes(names),
      ...(template.reads ? { reads: template.reads } : {}),
      capabilities: [],
      description: `${template.summary[0]!.toUpperCase()}${template.summary.slice(1)}.`,
    },
  };
}

function readme(names: Names, kind: Kind): string {
  return `# ${names.name}

A keel plugin: ${KINDS[kind].summary}. \`src/index.ts\` registers it, \`src/settings.ts\` is the schema of its
\`"${names.id}"\` section in settings.json, and \`test/plugin.test.js\` runs it in a real keel runtime with a
scripted model (\`@keel/testing\`).

\`\`\`sh
npm install
npm test                      # the plugin's own test
keel plugin validate          # manifest, entry, registrations, capabilities
keel --plugin . -p "..."      # try it in keel
keel plugin pack              # a tarball, its sha512 and a catalog entry
\`\`\`

keel loads \`src/index.ts\` as it is (no build step) and maps \`@keel/extensions-api\` and \`zod\` to its own
copies, so the plugin needs no dependency of its own to run. List in \`keel.capabilities\` what your own code
does (\`fs:read\`, \`fs:write\`, \`exec\`, \`net:<host>\`, \`env:<NAME>\`); users see it before they install.
`;
}
