package org.flexheap.bench.query;

/** The paper's word classes (§5): by document frequency in the index. */
public enum FrequencyClass {
    HIGH, MEDIUM, LOW
}
