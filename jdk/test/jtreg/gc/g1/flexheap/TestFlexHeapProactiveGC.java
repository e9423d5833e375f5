/*
 * @test
 * @summary FlexHeap's proactive GC fires when mutators stall on I/O and stop allocating,
 *          and not while they keep allocating.
 * @library /lib
 * @build FlexHeapPhases
 * @run main/timeout=300 TestFlexHeapProactiveGC
 */
public class TestFlexHeapProactiveGC {
    static final String CAUSE = "G1 FlexHeap Proactive Collection";

    public static void main(String[] args) throws Exception {
        String file = FlexHeapTestSupport.dataFile().toString();
        String idle = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx512m", "-Xlog:gc,gc+flexheap",
                "FlexHeapPhases", "3", "9", "4", file)).shouldHaveExit(0).output();
        if (!FlexHeapTestSupport.hasStallSource(idle)) {
            throw new jtreg.SkippedException("no I/O stall source on this host (need root for BPF or delay accounting)");
        }
        int at = idle.indexOf("PHASE io start");
        if (idle.indexOf(CAUSE, at) < 0) {
            throw new RuntimeException("no proactive GC in the stall-heavy idle phase");
        }
        FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx512m", "-Xlog:gc,gc+flexheap",
                "FlexHeapPhases", "3", "9", "4", file, "busy")).shouldHaveExit(0)
            .shouldNotContain(CAUSE);
    }
}
