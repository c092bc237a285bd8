/** GRADE evidence levels (SPEC §4.1): HIGH ⊕⊕⊕⊕, MODERATE ⊕⊕⊕○, LOW ⊕⊕○○, VERY LOW ⊕○○○. */
export type GradeLevel = 'high' | 'moderate' | 'low' | 'very_low';

/** Display labels of the levels. */
export const GRADE_LABELS: Readonly<Record<GradeLevel, string>> = {
  high: 'HIGH',
  moderate: 'MODERATE',
  low: 'LOW',
  very_low: 'VERY LOW',
};

const SYMBOLS: Readonly<Record<string, GradeLevel>> = {
  '⊕⊕⊕⊕': 'high',
  '⊕⊕⊕○': 'moderate',
  '⊕⊕○○': 'low',
  '⊕○○○': 'very_low',
};

/**
 * Reads a GRADE level in any spelling: case-insensitive words with space, `_` or `-` separators,
 * or the ⊕/○ symbols. Letter grades (A-D) are not mapped. Returns `null` for anything else.
 */
export function parseGradeLevel(value: unknown): GradeLevel | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  const symbols = /[⊕○◯]{4}/.exec(trimmed)?.[0]?.replace(/◯/g, '○');
  if (symbols !== undefined && SYMBOLS[symbols] !== undefined) return SYMBOLS[symbols] as GradeLevel;
  const word = /^(very[\s_-]*low|high|moderate|low)\b/i.exec(trimmed)?.[1];
  if (word === undefined) return null;
  const key = word.toLowerCase().replace(/[\s_-]+/g, '_');
  return key === 'very_low' || key === 'high' || key === 'moderate' || key === 'low' ? key : null;
}

/** Finds `GRADE: <level>` in text (a line of a source, or `(GRADE: LOW)` in citing prose). */
export function findGradeMarker(text: string): { level: GradeLevel; start: number; end: number } | null {
  const match = /\bGRADE\**:?\**[ \t]*(?:level[ \t]*:?[ \t]*)?\**[ \t]*(very[\s_-]*low|high|moderate|low|[⊕○]{4})/i.exec(text);
  if (match === null) return null;
  const level = parseGradeLevel(match[1]);
  return level === null ? null : { level, start: match.index, end: match.index + match[0].length };
}
