/**
 * zod without its compiled fast path, for the whole process (plugins get this zod): imported first by the CLI,
 * because an object schema reads the setting when it is built. On its first parse an object schema otherwise
 * generates and compiles a parser for its shape (`new Function`), ~0.1–1 ms each; a run parses most schemas
 * once or a few times (settings, manifests, a provider's settings, the first reply's events), so a 1-turn
 * `keel -p` spent ~7 ms compiling parsers it then hardly used. Without it a parse costs about the same once
 * warm (the Chat Completions chunk schema: ~1–2 µs either way, 20,000 parses).
 */
import { z } from "zod";

z.config({ jitless: true });
