/*
 * @test
 * @summary Without -XX:+UseFlexHeap no FlexHeap code runs and G1 sizes the heap as stock G1 does.
 * @library /lib
 * @build FlexHeapPhases
 * @run main TestFlexHeapOff
 */
public class TestFlexHeapOff {
    public static void main(String[] args) throws Exception {
        String out = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-Xms16m", "-Xmx512m",
                "-Xlog:gc+flexheap=debug,gc+task=debug,gc+ergo+heap=debug",
                "FlexHeapPhases", "3", "0", "0", FlexHeapTestSupport.dataFile().toString()))
            .shouldHaveExit(0)
            .shouldNotContain("[gc,flexheap")
            .shouldNotContain("FlexHeap Proactive GC Task")
            .shouldContain("Periodic GC Task")            // gc+task logging works: the check above means something
            .shouldContain("Expand the heap")             // G1's own sizing decisions, as in stock G1
            .output();
    }
}
