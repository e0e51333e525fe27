/**
 * @module `entistore check --format github|sarif` (issue 80): the same problems as the lines, for
 * a CI. `github`: one GitHub Actions annotation a problem (`::error file=…,line=…,col=…::…`, a
 * warning as `::warning`), which a pull request shows on its line. `sarif`: one SARIF 2.1.0 log
 * (OASIS), which GitHub's code scanning (`github/codeql-action/upload-sarif`) and other tools
 * read: a rule a kind of problem, a result a problem, its file relative to where the command ran.
 */
import { relative, sep } from 'node:path'
import type { FileProblems } from '@entistore/4d'
import { annotation } from '../testing/reporters/github.js'

/** One problem, wherever it comes from (the start-up, or a file's code). */
export interface Finding {
  /** The file, as the command names it (absolute, or relative to where it runs). */
  readonly file: string
  readonly line?: number
  readonly column?: number
  readonly severity: 'error' | 'warning'
  readonly message: string
  /** The kind: the compiler's problem code (`not-runnable`, …), or `startup`. */
  readonly rule: string
}

/** The problems of the code's files, each named by `name`; `info` left out, as the lines do. */
export function codeFindings(
  files: readonly FileProblems[],
  name: (f: string) => string,
): Finding[] {
  return files.flatMap(({ file, problems }) =>
    problems
      .filter((p) => p.severity !== 'info')
      .map((p) => ({
        file: name(file),
        line: p.line,
        column: p.column,
        severity: p.severity === 'error' ? ('error' as const) : ('warning' as const),
        message: p.message,
        rule: p.code,
      })),
  )
}

/** A path as a CI names a file of the repository: relative to where the command runs, with `/`. */
const repositoryPath = (file: string): string =>
  (relative(process.cwd(), file) || file).split(sep).join('/')

export function githubLines(findings: readonly Finding[]): string[] {
  return findings.map((f) =>
    annotation(f.severity, f.message, {
      file: repositoryPath(f.file),
      ...(f.line === undefined ? {} : { line: f.line }),
      ...(f.column === undefined ? {} : { column: f.column }),
      title: `entistore check (${f.rule})`,
    }),
  )
}

/** What each rule is, for SARIF's `rules`: the compiler's problem codes, and the start-up's. */
const RULES: Readonly<Record<string, string>> = {
  startup: 'What stops serve --project, or what it does not serve as 4D does',
  syntax: 'A line that does not parse',
  'not-runnable': 'A command, constant or construct that parses but cannot run here',
  arguments: 'A call with a wrong number of arguments',
  'command-name': 'A command written by another name than 4D gives it',
  declaration: 'A declaration 4D would refuse or warn of',
  'unknown-type': 'A type that no class or builtin gives',
  placement: 'A statement where 4D does not allow it',
  'unknown-member': 'A member its class does not declare',
  'process-variable': 'A process variable where a local was meant',
  qodlyscript: 'A construct of QodlyScript, not of 4D',
}

/** The SARIF 2.1.0 log of `findings`, by `version` of Entistore. */
export function sarifLog(findings: readonly Finding[], version: string): object {
  const rules = [...new Set(findings.map((f) => f.rule))].sort()
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'entistore check',
            version,
            rules: rules.map((id) => ({
              id,
              shortDescription: { text: RULES[id] ?? id },
            })),
          },
        },
        results: findings.map((f) => ({
          ruleId: f.rule,
          ruleIndex: rules.indexOf(f.rule),
          level: f.severity,
          message: { text: f.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: repositoryPath(f.file) },
                ...(f.line === undefined
                  ? {}
                  : {
                      region: {
                        startLine: f.line,
                        ...(f.column === undefined ? {} : { startColumn: f.column }),
                      },
                    }),
              },
            },
          ],
        })),
      },
    ],
  }
}
