package org.flexheap.bench.workload;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/** The JVM a result came from, so results are comparable across heap policies. */
public final class JvmInfo {
    private JvmInfo() {}

    public static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        Runtime rt = Runtime.getRuntime();
        m.put("max_heap", rt.maxMemory());
        m.put("committed_heap", rt.totalMemory());
        m.put("java_version", System.getProperty("java.version"));
        m.put("vm", System.getProperty("java.vm.name"));
        m.put("processors", rt.availableProcessors());
        m.put("gcs", ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).toList());
        m.put("read_advice", org.flexheap.bench.index.IndexDirectories.mode());
        m.put("input_arguments", ManagementFactory.getRuntimeMXBean().getInputArguments());
        return m;
    }
}
