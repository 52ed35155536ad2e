import { execFile } from "node:child_process";

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a Node script with this Node to its end; never rejects, the exit code is in the result. `input`, when given, is its stdin. */
export function runNode(
  script: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; timeout?: number; maxBuffer?: number } = {},
): Promise<Run> {
  const { input, ...execOptions } = options;
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [script, ...args], execOptions, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Whether a process of that ID is running. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Kills the process with SIGKILL; one that has already exited is left alone. */
export function killProcess(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}
