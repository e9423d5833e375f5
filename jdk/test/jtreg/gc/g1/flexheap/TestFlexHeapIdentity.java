/*
 * @test
 * @summary The FlexHeap JDK names itself and its revision; gc+init says whether FlexHeap is on.
 * @library /lib
 * @run main TestFlexHeapIdentity
 */
import java.util.List;

public class TestFlexHeapIdentity {
    public static void main(String[] args) throws Exception {
        FlexHeapTestSupport.java(List.of("-version")).shouldHaveExit(0)
            .shouldContain("FlexHeap ");
        FlexHeapTestSupport.java(List.of("-Xlog:gc+init", "-version")).shouldHaveExit(0)
            .shouldContain("FlexHeap: Disabled (build ");
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-Xlog:gc+init", "-version")).shouldHaveExit(0)
            .shouldContain("FlexHeap: Enabled (build ");
        // The regenerated CDS archive is mapped, not rejected.
        FlexHeapTestSupport.java(List.of("-Xshare:on", "-version")).shouldHaveExit(0)
            .shouldContain("sharing");
    }
}
