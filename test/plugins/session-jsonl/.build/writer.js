/**
* Appending to a session file: the only code that writes one. Holds the lock, opens with O_APPEND (each
* entry batch is one `write`, so a crash leaves at most one torn line at the end), and before the first append
* trims a torn tail back to the last newline. It never rewrites anything before that point.
*/
import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { entryLine, headerLine } from "./format.js";
import { completeLength } from "./lines.js";
import { acquireLock } from "./lock.js";
export class SessionWriter {
	path;
	lock;
	options;
	size;
	fd;
	lost = false;
	constructor(path, fd, lock, options, size) {
		this.path = path;
		this.lock = lock;
		this.options = options;
		this.size = size;
		this.fd = fd;
	}
	/** Creates a new session file (failing if it exists) with its header and first entries. */
	static create(path, header, entries, options) {
		mkdirSync(dirname(path), { recursive: true });
		const fd = openSync(path, "wx");
		let lock;
		let writer;
		try {
			lock = acquireLock(path, options.lock, (reason) => writer?.markLost(reason));
			writer = new SessionWriter(path, fd, lock, options, 0);
			writer.write(headerLine(header) + entries.map(entryLine).join(""));
			return writer;
		} catch (error) {
			lock?.release();
			closeSync(fd);
			throw error;
		}
	}
	/** Opens an existing session file for appending; throws `SessionLockedError` when another process has it. */
	static open(path, options) {
		let writer;
		const lock = acquireLock(path, options.lock, (reason) => writer?.markLost(reason));
		try {
			const fd = openSync(path, "a");
			const size = fstatSync(fd).size;
			const complete = trimTornTail(path, size);
			writer = new SessionWriter(path, fd, lock, options, complete);
			return writer;
		} catch (error) {
			lock.release();
			throw error;
		}
	}
	get writable() {
		return this.fd !== undefined && !this.lost;
	}
	/** Appends entries in one write. A no-op once closed or after the lock was lost. */
	append(entries) {
		if (!this.writable || entries.length === 0) return;
		this.write(entries.map(entryLine).join(""));
	}
	close() {
		if (this.fd === undefined) return;
		closeSync(this.fd);
		this.fd = undefined;
		this.lock.release();
	}
	write(text) {
		const buf = Buffer.from(text, "utf8");
		let done = 0;
		while (done < buf.length) done += writeSync(this.fd, buf, done, buf.length - done);
		if (this.options.fsync) fdatasyncSync(this.fd);
		this.size += buf.length;
	}
	markLost(reason) {
		if (this.lost) return;
		this.lost = true;
		this.options.onLost(reason);
	}
}
/** Cuts bytes after the last newline (a torn append) and returns the new size. Needs the lock. */
function trimTornTail(path, size) {
	const fd = openSync(path, "r+");
	try {
		const complete = completeLength(fd, size);
		if (complete < size) ftruncateSync(fd, complete);
		return complete;
	} finally {
		closeSync(fd);
	}
}
