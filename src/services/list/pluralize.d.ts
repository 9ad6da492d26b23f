// pluralize 8 ships no types; these are the calls list makes (json-server 0.17's own naming rules).
declare module 'pluralize' {
  interface Pluralize {
    (word: string, count?: number, inclusive?: boolean): string;
    plural(word: string): string;
    singular(word: string): string;
  }
  const pluralize: Pluralize;
  export default pluralize;
}
