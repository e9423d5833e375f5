/* jtreg reports a test that throws an exception of this name as skipped, not failed. */
package jtreg;

public class SkippedException extends RuntimeException {
    public SkippedException(String reason) { super(reason); }
}
