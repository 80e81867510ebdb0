/**
* One writer per session file. The lock is proper-lockfile's (an atomic `mkdir` of `<file>.lock` whose
* mtime the holder refreshes; it expires after `staleMs` without refresh). Beside it, `<file>.owner` names the
* holder's process, so a lock left by a process that died on this machine is taken over at once instead of
* after the expiry.
*/
import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { createRequire } from "node:module";
// Required on the first lock, not at startup: proper-lockfile pulls in graceful-fs, which patches fs on load.
let lockfileModule;
const lockfile = () => lockfileModule ??= createRequire(import.meta.url)("proper-lockfile");
/** Thrown when another live process holds the lock. */
export class SessionLockedError extends Error {
	file;
	owner;
	constructor(file, owner) {
		const who = owner ? `process ${owner.pid} on ${owner.host}, since ${owner.since}` : "another process";
		super(`${file} is open in ${who}`);
		this.file = file;
		this.owner = owner;
		this.name = "SessionLockedError";
	}
}
const ownerPath = (file) => `${file}.owner`;
function readOwner(file) {
	try {
		return JSON.parse(readFileSync(ownerPath(file), "utf8"));
	} catch {
		return undefined;
	}
}
function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === "EPERM";
	}
}
/**
* Takes the lock on `file` or throws `SessionLockedError`. `onLost` runs if the lock is later lost (its
* refresh failed past the expiry, or another process took it over): the caller must stop writing.
*/
export function acquireLock(file, settings, onLost) {
	const options = {
		stale: settings.staleMs,
		update: Math.floor(settings.staleMs / 2),
		realpath: false,
		onCompromised: (e) => onLost(e.message)
	};
	let unlock;
	try {
		unlock = lockfile().lockSync(file, options);
	} catch (error) {
		if (error.code !== "ELOCKED") throw error;
		const owner = readOwner(file);
		if (!owner || owner.host !== hostname() || isAlive(owner.pid)) throw new SessionLockedError(file, owner);
		// The holder died on this machine: mark its lock expired and let proper-lockfile take it over.
		try {
			utimesSync(`${file}.lock`, 0, 0);
			unlock = lockfile().lockSync(file, options);
		} catch (retryError) {
			if (retryError.code === "ELOCKED") throw new SessionLockedError(file, readOwner(file));
			throw retryError;
		}
	}
	const me = {
		pid: process.pid,
		host: hostname(),
		since: new Date().toISOString(),
		token: randomBytes(8).toString("hex")
	};
	const tmp = `${ownerPath(file)}.${me.token}`;
	writeFileSync(tmp, JSON.stringify(me));
	renameSync(tmp, ownerPath(file));
	let released = false;
	return { release() {
		if (released) return;
		released = true;
		if (readOwner(file)?.token === me.token) rmSync(ownerPath(file), { force: true });
		try {
			unlock();
		} catch {}
	} };
}
