/**
* Entries in file order with every parent that is not an earlier entry replaced as described above; entries
* that needed no repair are returned as they are. `warn` is told about each repair.
*/
export function repairParents(lines, warn) {
	const position = new Map();
	const readableBefore = [];
	let lastReadable = null;
	lines.forEach((line, at) => {
		readableBefore.push(lastReadable);
		const id = "entry" in line ? line.entry.id : line.damaged.ids?.id;
		if (id !== undefined && !position.has(id)) position.set(id, {
			at,
			line
		});
		if ("entry" in line) lastReadable = line.entry.id;
	});
	/** Where the chain of the entry at `at` continues when its parent is `parentId`. */
	const parentFor = (parentId, at) => {
		let from = at;
		for (let id = parentId; id !== null;) {
			const found = position.get(id);
			if (!found || found.at >= from) return readableBefore[from];
			if ("entry" in found.line) return id;
			from = found.at;
			id = found.line.damaged.ids.parentId;
		}
		return null;
	};
	const out = [];
	lines.forEach((line, at) => {
		if (!("entry" in line)) return;
		const { entry } = line;
		const parentId = entry.parentId === null ? null : parentFor(entry.parentId, at);
		if (parentId === entry.parentId) {
			out.push(entry);
			return;
		}
		const joined = parentId === null ? "it starts the branch instead" : `it was joined to ${parentId}, the readable entry before it`;
		warn(`entry ${entry.id} names a parent ${entry.parentId} that is not an earlier readable entry (a damaged line?); ${joined}`);
		out.push({
			...entry,
			parentId
		});
	});
	return out;
}
