/*
 * @test
 * @summary With FlexHeap the heap grows under allocation pressure, shrinks with ioBias when mutators
 *          stall on I/O and allocate little, and never goes below -Xms or the eden target. "paper" runs
 *          the paper's predicates alone (-XX:FlexHeapNegligibleCostPercent=0); "default" also lets a
 *          negligible GC cost turn a grow into a shrink (reason gcNegligible).
 * @library /lib
 * @build FlexHeapPhases
 * @run main/timeout=300 TestFlexHeapGrowShrink paper
 * @run main/timeout=300 TestFlexHeapGrowShrink default
 */
import java.util.List;
import java.util.regex.*;

public class TestFlexHeapGrowShrink {
    public static void main(String[] args) throws Exception {
        boolean paper = args[0].equals("paper");
        long xms = 96L << 20;
        String out = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-XX:FlexHeapNegligibleCostPercent=" + (paper ? 0 : 10),
                "-Xms96m", "-Xmx1g", "-XX:G1HeapRegionSize=1m",
                "-Xlog:gc+flexheap=debug,gc", "FlexHeapPhases", "5", "14", "4",
                FlexHeapTestSupport.dataFile().toString()))
            .shouldHaveExit(0).output();
        if (!FlexHeapTestSupport.hasStallSource(out)) {
            throw new jtreg.SkippedException("no I/O stall source on this host (need root for BPF or delay accounting)");
        }
        List<FlexHeapTestSupport.Decision> ds = FlexHeapTestSupport.decisions(out);
        double ioStart = FlexHeapTestSupport.phaseTime(out, "PHASE io start");
        long grownBytes = ds.stream().filter(d -> d.time() < ioStart && d.action().equals("Grow"))
                            .mapToLong(d -> d.bytes()).sum();
        if (grownBytes < (64L << 20)) {
            throw new RuntimeException("heap grew only " + grownBytes + " bytes in the allocation phase");
        }
        long shrinks = ds.stream().filter(d -> d.time() > ioStart && d.action().equals("Shrink")
                                               && (d.reason().contains("ioBias")
                                                   || (!paper && d.reason().contains("gcNegligible")))).count();
        if (shrinks == 0) throw new RuntimeException("no ioBias" + (paper ? "" : "/gcNegligible") + " shrink in the I/O phase");
        if (paper && out.contains("Negligible")) throw new RuntimeException("negligible-cost rule ran with 0%");
        for (FlexHeapTestSupport.Decision d : ds) {
            if (d.committed() < xms) throw new RuntimeException("committed " + d.committed() + " below -Xms at " + d);
        }
        // Alg. 3: a shrink only returns free regions beyond G1's eden target.
        Matcher m = Pattern.compile("inputs .* free_regions=(\\d+) eden_target=(\\d+)[^\\n]*\\n[^\\n]*costs .* requested=(\\d+)")
                           .matcher(out);
        int checked = 0;
        Matcher shrinkLine = Pattern.compile("action=Shrink bytes=(\\d+)").matcher(out);
        while (m.find()) {
            long budget = Math.max(0, Long.parseLong(m.group(1)) - Long.parseLong(m.group(2))) << 20;
            long requested = Long.parseLong(m.group(3));
            String block = out.substring(Math.max(0, m.start() - 400), m.start());
            if (block.contains("action=Shrink") && requested > budget) {
                throw new RuntimeException("shrink request " + requested + " exceeds free-beyond-eden " + budget);
            }
            checked++;
        }
        if (checked == 0) throw new RuntimeException("no debug decision inputs in the log");
    }
}
