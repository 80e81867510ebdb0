/**
 * Questions a plugin asks the user through whichever UI is active (the `ui_request` hook): a permission
 * prompt, a choice, a line of text. A UI without a user (print mode, CI) answers nothing, and the asking
 * plugin must then take its safe default.
 */

export type UiRequest =
  | { kind: "confirm"; title: string; message?: string }
  | { kind: "select"; title: string; options: string[] }
  | { kind: "input"; title: string; placeholder?: string };

export type UiResponse =
  { kind: "confirm"; confirmed: boolean } | { kind: "select"; value: string } | { kind: "input"; value: string };
