/**
 * @keel/formats: the community's component formats read into keel's terms. Each reader takes a folder or a
 * file and returns what keel can use and a note per file for what it cannot honour; the subpaths load one
 * reader each, so a plugin pays only for the formats it reads.
 */
export { noteText, Notes, type FileNote } from "./notes.ts";
