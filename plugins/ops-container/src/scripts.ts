/**
 * The shell scripts keel runs inside the container, for POSIX sh alone (busybox's is enough): nothing of keel is
 * installed in the image. Each runs as `/bin/sh -c <script> keel <args…>`.
 *
 * Finding a command's processes: the command runs with a tag in its environment (`KEEL_OPS_TAG`), which its
 * children inherit through fork and exec and keep after `setsid` and after their parent dies; it leads its own
 * session when the image has `setsid`; and descendants of either are found by parent pid. The scripts read
 * that from /proc; none of them carries a tag itself, so a scan never finds the scanner.
 */

/** The variable that marks every process of one command. */
export const TAG_VARIABLE = "KEEL_OPS_TAG";

/**
 * `members`: sets `found` to the pids (space-separated, space-padded) of the live processes whose environment
 * matches `$pattern` (a basic regex over one `NAME=value` entry), of session `$sid` when set, and their
 * descendants. `{ read …; } 2>/dev/null` reads a /proc file without forking, and says nothing of a process that
 * ended meanwhile; a zombie counts as gone.
 */
const MEMBERS = `
members() {
  found=' '
  for f in $(grep -lz -- "$pattern" /proc/[0-9]*/environ 2>/dev/null); do
    p=\${f#/proc/}; found="$found\${p%/environ} "
  done
  more=1
  while [ -n "$more" ]; do
    more=
    for s in /proc/[0-9]*/stat; do
      p=\${s#/proc/}; p=\${p%/stat}
      case $found in *" $p "*) continue ;; esac
      { read -r line < "$s"; } 2>/dev/null || continue
      set -- \${line##*) }
      [ "$1" = Z ] && continue
      if [ -n "$sid" ] && [ "$4" = "$sid" ]; then found="$found$p "; more=1; continue; fi
      case $found in *" $2 "*) found="$found$p "; more=1 ;; esac
    done
  done
}
`;

/**
 * Runs `$command` (its tag in `$tag`), through bash when the image has it, else sh (asked each time: a builtin
 * lookup, cheaper than an exec to ask once). The command's shell gets stdin (the exec's, which is /dev/null
 * unless keel feeds it), writes stdout and stderr to the exec's stdout in the order written (`exec 2>&1`, as the
 * local backend does), and leads its own session. The exec's stderr is the script's own: it says `start <pid>`
 * once the command runs and `exit <status> <processes left>` once it ended, the last being what it left running
 * (so keel skips the kill pass when nothing is left); on stdout, after the command's output, it marks the end
 * (end-mark.ts). `3<&0` keeps stdin for the background job, which sh would
 * otherwise give /dev/null.
 */
const RUN = `
shell=sh
command -v bash >/dev/null 2>&1 && shell=bash
pattern="^${TAG_VARIABLE}=$tag$"
lead=
command -v setsid >/dev/null 2>&1 && lead=setsid
exec 3<&0
${TAG_VARIABLE}=$tag $lead "$shell" -c 'exec 2>&1; eval "shift; $1"' keel "$command" <&3 3<&- 2>&1 &
pid=$!
exec 3<&-
sid=
[ -n "$lead" ] && sid=$pid
printf 'start %s\\n' "$pid" >&2
wait "$pid"
status=$?
printf '\\000keel-end-%s\\n' "$tag"
${MEMBERS}
members
set -- $found
printf 'exit %s %s\\n' "$status" "$#" >&2
`;

/** Runs one command in an exec made for it: args `<tag> <command>`; the exec's folder and environment are its own. */
export const RUN_SCRIPT = `tag=$1 command=$2\n${RUN}`;

/**
 * The session's shell (shell.ts): an exec started ahead and kept, which runs the commands it is handed, one at
 * a time; its one arg is the folder the exec starts in (where the engine put it, which a user without access to
 * it could not `cd` into again). Each command is one line on its stdin, `<tag> <folder> <command>
 * <NAME=value>…`, and each word but the tag is `p` and the text itself when that is plain (letters, digits and
 * `_.,:/=+@%-`: no decoding, which costs forks), else `x` and its base64 (any bytes fit, an empty one stays a
 * word, and a trailing newline survives the `$(…)` by the `.` after it). In a subshell (so nothing carries over
 * to the next command), with stdin /dev/null, it changes into the folder, exports the variables and runs the
 * command as RUN_SCRIPT does. It says `ready` on stderr once it waits. At end of input it exits; an image
 * without base64 gets no shell, and commands get execs of their own.
 */
export const SHELL_SCRIPT = `
started_in=$1
command -v base64 >/dev/null 2>&1 || exit 0
word() {
  case $1 in
    p*) value=\${1#p} ;;
    *) value=$(printf '%s' "\${1#x}" | base64 -d; echo .); value=\${value%.} ;;
  esac
}
one() {
  set -- $1
  tag=$1
  word "$2"; folder=$value
  word "$3"; command=$value
  shift 3
  for entry in "$@"; do
    word "$entry"; export -- "$value" 2>/dev/null
  done
  if [ "$folder" != "$started_in" ] && ! cd -- "$folder" 2>/dev/null; then
    printf 'cannot enter the folder %s in the container\\n' "$folder"
    printf '\\000keel-end-%s\\n' "$tag"
    printf 'exit 1 0\\n' >&2
    return
  fi
  ${RUN}
}
printf 'ready\\n' >&2
while IFS= read -r line; do
  ( one "$line" ) </dev/null
done
`;

/** One word of a command's line: the text itself when plain, else its base64 (see SHELL_SCRIPT). */
function word(text: string): string {
  return /^[\w.,:/=+@%-]+$/.test(text) ? `p${text}` : `x${Buffer.from(text, "utf8").toString("base64")}`;
}

/** The line that hands the shell a command (see SHELL_SCRIPT). */
export function commandLine(tag: string, folder: string, command: string, env: Record<string, string>): string {
  const words = [tag, word(folder), word(command), ...Object.entries(env).map(([n, v]) => word(`${n}=${v}`))];
  return `${words.join(" ")}\n`;
}

/**
 * Stops processes: args `<pattern> <sid> <grace ms>` (`sid` may be empty). TERM to every member, KILL to what
 * is left after the grace, again each pass (a member may fork between a scan and the signal), for at most three
 * seconds more. Exits 0 once none is left, 1 if some would not go.
 */
export const KILL_SCRIPT = `
pattern=$1 sid=$2 grace=$3
${MEMBERS}
nap() { sleep 0.05 2>/dev/null || sleep 1; }
members
[ "$found" = ' ' ] && exit 0
kill -TERM $found 2>/dev/null
waited=0
while [ "$waited" -lt "$grace" ]; do
  nap
  members
  [ "$found" = ' ' ] && exit 0
  waited=$((waited + 50))
done
tries=0
while [ "$tries" -lt 60 ]; do
  kill -KILL $found 2>/dev/null
  nap
  members
  [ "$found" = ' ' ] && exit 0
  tries=$((tries + 1))
done
exit 1
`;

/** The `pattern` of one command's tag, or of every tag with `prefix` (a session's). */
export function tagPattern(tag: string, prefix = false): string {
  return prefix ? `^${TAG_VARIABLE}=${tag}-` : `^${TAG_VARIABLE}=${tag}$`;
}
