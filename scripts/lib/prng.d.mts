export declare function mulberry32(seed: number): () => number;
export declare function prngFromString(seed: string): () => number;
