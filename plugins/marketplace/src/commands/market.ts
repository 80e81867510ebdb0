/**
 * `keel market add <path | git url | https url>`, `market list`, `market update [name]`, `market remove <name>`,
 * and for catalog owners `market keygen [folder]` and `market sign <file>`. The managed settings'
 * `plugins.allowedCatalogs` limits what can be added; a signed catalog's key is pinned at `add` and checked
 * at every `update`.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { CliContext } from "@keel/extensions-api";
import { addCatalog, removeCatalog, updateCatalogs } from "@keel/installer";
import { allCatalogs, checkCatalogChange, shippedCatalogs } from "../catalogs.ts";
import { keygen, signCatalog } from "../market-keys.ts";
import { guarded } from "../options.ts";
import { UsageError } from "../scope.ts";

const text = (v: unknown) => (typeof v === "string" ? v : undefined);

/** `--key` at add: a minisign public key as typed, or the file holding it. */
function publicKeyArg(value: string | undefined, cwd: string): string | undefined {
  if (value === undefined || /^RW[A-Za-z0-9+/]{50,}={0,2}$/.test(value)) return value;
  try {
    return readFileSync(resolve(cwd, value), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`--key ${value}: neither a minisign public key nor a file keel can read (${code})`);
  }
}

export function run(args: string[], options: Record<string, unknown>, context: CliContext): Promise<number> {
  return guarded(context, async () => {
    const [action, target] = args;
    const home = context.keelHome;
    switch (action) {
      case "add": {
        if (!target) throw new UsageError(`market add needs a path, a git URL or an https URL`);
        checkCatalogChange(context, { adding: true });
        if (/^(git[:+]|.*\.git(#.*)?$)/.test(target) && !options.allowGit)
          throw new UsageError(`${target}: git catalogs are opt-in; add --allow-git`);
        const record = await addCatalog(home, target, {
          cwd: context.cwd,
          allowed: context.installPolicy.allowedCatalogs,
          blocked: context.installPolicy.blockedCatalogs,
          managedFile: context.installPolicy.managedFile,
          key: publicKeyArg(text(options.key), context.cwd),
          command: context.command,
        });
        context.stdout(
          `added the catalog "${record.catalog.name}" (${record.catalog.plugins.length} plugins) ` +
            `from ${record.origin}\n`,
        );
        context.stdout(
          record.key
            ? `  signed by the key ${record.key.id} (${record.key.fingerprint}); pinned: every update must be ` +
                "signed by it\n"
            : "  unsigned: whoever can change it can change what it installs\n",
        );
        return 0;
      }
      case "list": {
        const shipped = new Set(shippedCatalogs(context).records.map((r) => r.catalog.name));
        for (const r of allCatalogs(context)) {
          const from = shipped.has(r.catalog.name) ? `, with ${context.command}` : "";
          const signed = r.key ? `  key ${r.key.id}` : "  unsigned";
          context.stdout(
            `${r.catalog.name}  ${r.catalog.plugins.length} plugins  ${r.origin}${signed}  ` +
              `(updated ${r.updatedAt}${from})\n`,
          );
        }
        return 0;
      }
      case "update": {
        if (target) checkCatalogChange(context, { adding: false, name: target });
        if (options.acceptKey !== undefined && !target)
          throw new UsageError("--accept-key is for one catalog: market update <name> --accept-key <key id>");
        const results = await updateCatalogs(home, target, {
          command: context.command,
          acceptKey: text(options.acceptKey),
        });
        for (const r of results) {
          if (r.notice) context.stdout(`${r.notice}\n`);
          if (r.record)
            context.stdout(`updated the catalog "${r.name}" (${r.record.catalog.plugins.length} plugins)\n`);
          else context.stderr(`${context.command}: ${r.error}\n`);
        }
        return results.some((r) => r.error) ? 1 : 0;
      }
      case "remove":
        if (!target) throw new UsageError(`market remove needs the catalog's name`);
        checkCatalogChange(context, { adding: false, name: target });
        removeCatalog(home, target);
        context.stdout(`removed the catalog "${target}"\n`);
        return 0;
      case "keygen":
        return keygen(target, context);
      case "sign":
        if (!target) throw new UsageError(`market sign needs the catalog file (marketplace.json)`);
        return signCatalog(target, text(options.key), context);
      default:
        throw new UsageError(`market ${action ?? ""}: expected add, list, update, remove, keygen or sign`);
    }
  });
}
