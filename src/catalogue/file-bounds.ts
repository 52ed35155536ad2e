import type { RowError } from "./records";

/**
 * What one content file may hold, checked on its structure before any record is validated or compared with another
 * (an entity's FAQs and languages are records.ts's MAX_FAQS and MAX_LANGUAGES): a file at the upload limit then
 * costs a bounded pass over its text, whatever it repeats or nests.
 */
export const FILE_BOUNDS = {
  /** Records of an NDJSON or JSON file, and entities named by a CSV file: a brand of 1,200 hotels fits four times. */
  records: 5_000,
  /** Data rows of a CSV file (an FAQ or a translation a row). */
  csvRows: 60_000,
  /** Problems listed for a file; the rest are counted. */
  problems: 200,
} as const;

const count = (n: number) => n.toLocaleString("en");

/** The problem of a file with more records than FILE_BOUNDS allows. */
export const tooManyRecords = (what: string): RowError => ({
  line: 1,
  field: "(file)",
  message: `has more than ${count(FILE_BOUNDS.records)} ${what}: split it into files of at most ${count(FILE_BOUNDS.records)}`,
});

/** The problem of a CSV file with more rows than FILE_BOUNDS allows. */
export const tooManyRows = (): RowError => ({
  line: 1,
  field: "(file)",
  message: `has more than ${count(FILE_BOUNDS.csvRows)} rows: split it into files of at most ${count(FILE_BOUNDS.csvRows)}`,
});

/**
 * A file's problems: the first FILE_BOUNDS.problems by line listed, the others counted, so a file of a million bad
 * lines answers with one page, not a million rows.
 */
export class ProblemList {
  private readonly kept: RowError[] = [];
  private unlisted = 0;

  add(problem: RowError): void {
    if (this.kept.length < FILE_BOUNDS.problems) this.kept.push(problem);
    else this.unlisted += 1;
  }

  addAll(problems: Iterable<RowError>): void {
    for (const problem of problems) this.add(problem);
  }

  /** Whether as many problems are listed as will be: checking further would only count more. */
  get full(): boolean {
    return this.kept.length >= FILE_BOUNDS.problems;
  }

  /** The listed problems by line, and how many more there are. */
  result(): { errors: RowError[]; more: number } {
    return { errors: [...this.kept].sort((a, b) => a.line - b.line), more: this.unlisted };
  }
}

/** Listed problems with, where some were not listed, a last one that says how many: for answers that are lists only. */
export const withUnlisted = ({ errors, more, unchecked = 0 }: { errors: RowError[]; more: number; unchecked?: number }): RowError[] => [
  ...errors,
  ...(more === 0
    ? []
    : [{ line: errors.at(-1)?.line ?? 1, field: "(file)", message: `…and ${count(more)} more problems: fix these to see them` }]),
  ...(unchecked === 0
    ? []
    : [{ line: errors.at(-1)?.line ?? 1, field: "(file)", message: `${count(unchecked)} more records were not checked: fix these first` }]),
];
