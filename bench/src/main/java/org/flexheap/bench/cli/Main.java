/*
 * Copyright (c) 2026, FlexHeap contributors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  The FlexHeap contributors
 * designate this particular file as subject to the "Classpath" exception
 * as provided by Oracle in the LICENSE file that accompanied this code.
 *
 * This code is distributed in the hope that it will be useful, but WITHOUT
 * ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 * version 2 for more details (a copy is included in the LICENSE file that
 * accompanied this code).
 *
 * You should have received a copy of the GNU General Public License version
 * 2 along with this work; if not, write to the Free Software Foundation,
 * Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
 *
 */

package org.flexheap.bench.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.flexheap.bench.corpus.ZipfVocabulary;
import org.flexheap.bench.index.BuildParams;
import org.flexheap.bench.index.IndexBuilder;
import org.flexheap.bench.query.QueryKind;
import org.flexheap.bench.util.Json;
import org.flexheap.bench.workload.AllocWorkload;
import org.flexheap.bench.workload.Characterize;
import org.flexheap.bench.workload.PhasesWorkload;
import org.flexheap.bench.workload.RunOptions;
import org.flexheap.bench.workload.Scale;
import org.flexheap.bench.workload.Workload;
import org.flexheap.bench.workload.WorkloadRunner;

/** {@code java -jar flexheap-bench.jar <command> [options]}. Exit 0 ok, 1 failed run, 2 usage error. */
public final class Main {
    static final String USAGE = """
            usage: java -jar flexheap-bench.jar <command> [options]
              build-index  --index DIR --size-mb N [--seed S] [--vocab V] [--doc-words W] [--segments K]
                           [--corpus PATH] [--exponent E] [--tail-exponent E2] [--stop-words N] [--threads T]
              run          --index DIR --workload NAME [--scale F] [--clients C] [--seed S] [--out FILE.json]
                           [--batch-rate R] [--batch-size B] [--cold]
                           NAME: H50 M50 L50 H500k M500k M1 M2 M3 M4 ingest
              run          --workload alloc [--live-size 256m] [--small-live-size 32m] [--alloc-size SIZE]
                           [--rounds 2] [--mutations 1] [--scale F] [--clients C] [--seed S] [--out FILE.json]
              run          --workload phases --data-file FILE [--file-size 3g] [--live-size 256m] [--alloc-size SIZE]
                           [--reads N] [--block-size 4k] [--direct] [--rounds 2] [--mutations 1] [--cold]
                           [--scale F] [--clients C] [--seed S] [--out FILE.json]
                           sizes take binary suffixes (k m g t); alloc and phases need no index
              characterize --index DIR [--scale F] [--clients C] [--seed S] [--out FILE.json] [--warm]
                           [--footprint-samples N]
              info
            """;

    private Main() {}

    public static void main(String[] argv) {
        System.exit(run(argv, System.out));
    }

    public static int run(String[] argv, PrintStream out) {
        if (argv.length == 0 || argv[0].equals("-h") || argv[0].equals("--help") || argv[0].equals("help")) {
            out.print(USAGE);
            return argv.length == 0 ? 2 : 0;
        }
        String command = argv[0];
        try {
            return switch (command) {
                case "build-index" -> buildIndex(new Args(argv, 1, Set.of()), out);
                case "run" -> runWorkload(new Args(argv, 1, Set.of("cold", "direct")), out);
                case "characterize" -> characterize(new Args(argv, 1, Set.of("warm")), out);
                case "info" -> info(new Args(argv, 1, Set.of()), out);
                default -> throw new Args.UsageException("unknown command '" + command + "'");
            };
        } catch (Args.UsageException | IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.print(USAGE);
            return 2;
        }
    }

    private static int buildIndex(Args a, PrintStream out) {
        Path index = Path.of(a.required("index"));
        long sizeMb = a.longValue("size-mb", -1);
        if (sizeMb <= 0) throw new Args.UsageException("--size-mb N (N > 0) is required");
        BuildParams p = new BuildParams(sizeMb,
                a.longValue("seed", BuildParams.DEFAULT_SEED),
                a.intValue("vocab", BuildParams.DEFAULT_VOCAB),
                a.doubleValue("exponent", BuildParams.DEFAULT_HEAD_EXPONENT),
                a.doubleValue("tail-exponent", BuildParams.DEFAULT_TAIL_EXPONENT),
                a.intValue("stop-words", BuildParams.DEFAULT_STOP_WORDS),
                a.intValue("doc-words", BuildParams.DEFAULT_DOC_WORDS),
                a.intValue("segments", BuildParams.DEFAULT_SEGMENTS),
                a.string("corpus", null));
        int threads = a.intValue("threads", Runtime.getRuntime().availableProcessors());
        a.rejectUnused();
        if (p.segments() < 1) throw new Args.UsageException("--segments must be >= 1");
        if (p.docWords() < 2) throw new Args.UsageException("--doc-words must be >= 2");
        if (p.corpus() != null && !Files.exists(Path.of(p.corpus()))) {
            throw new Args.UsageException("--corpus " + p.corpus() + " does not exist");
        }
        try {
            Map<String, Object> m = new IndexBuilder(p, index, threads).buildOrReuse();
            out.println(Json.write(m));
            return 0;
        } catch (Exception e) {
            return fail("build-index", e);
        }
    }

    private static Scale scale(Args a) {
        int clients = a.intValue("clients", 0);
        return new Scale(a.doubleValue("scale", Scale.DEFAULT_FACTOR), clients > 0 ? clients : null);
    }

    private static int runWorkload(Args a, PrintStream out) {
        Workload w = Workload.parse(a.required("workload"));
        Path index = null;
        if (w.needsIndex()) {
            index = Path.of(a.required("index"));
        } else if (a.string("index", null) != null) {
            System.err.println("[run] " + w + " does not use --index");
        }
        Scale scale = scale(a);
        RunOptions opt = new RunOptions(a.longValue("seed", RunOptions.DEFAULT_SEED),
                a.doubleValue("batch-rate", RunOptions.DEFAULT_BATCH_RATE), a.intValue("batch-size", 0), a.flag("cold"));
        if (w == Workload.alloc) {
            opt = opt.withAlloc(new AllocWorkload.Config(
                    a.size("live-size", AllocWorkload.Config.DEFAULT_LARGE),
                    a.size("small-live-size", AllocWorkload.Config.DEFAULT_SMALL),
                    a.optionalSize("alloc-size"),
                    a.intValue("rounds", AllocWorkload.Config.DEFAULT_ROUNDS),
                    a.intValue("mutations", AllocWorkload.Config.DEFAULT_MUTATIONS)));
        } else if (w == Workload.phases) {
            long reads = a.longValue("reads", 0);
            opt = opt.withPhases(new PhasesWorkload.Config(
                    Path.of(a.required("data-file")),
                    a.size("file-size", PhasesWorkload.Config.DEFAULT_FILE),
                    a.size("live-size", PhasesWorkload.Config.DEFAULT_LIVE),
                    a.optionalSize("alloc-size"),
                    reads > 0 ? Long.valueOf(reads) : null,
                    (int) Math.min(Integer.MAX_VALUE, a.size("block-size", PhasesWorkload.Config.DEFAULT_BLOCK)),
                    a.flag("direct"),
                    a.intValue("rounds", PhasesWorkload.Config.DEFAULT_ROUNDS),
                    a.intValue("mutations", PhasesWorkload.Config.DEFAULT_MUTATIONS)));
        }
        String outFile = a.string("out", null);
        a.rejectUnused();
        Map<String, Object> result;
        try {
            result = WorkloadRunner.run(index, w, scale, opt);
        } catch (Throwable e) {
            result = failed(w.name(), scale, e);
        }
        return emit(result, outFile, out);
    }

    private static int characterize(Args a, PrintStream out) {
        Path index = Path.of(a.required("index"));
        Scale scale = scale(a);
        long seed = a.longValue("seed", RunOptions.DEFAULT_SEED);
        boolean warm = a.flag("warm");
        int samples = a.intValue("footprint-samples", Characterize.DEFAULT_FOOTPRINT_SAMPLES);
        String outFile = a.string("out", null);
        a.rejectUnused();
        Map<String, Object> result;
        try {
            result = Characterize.run(index, scale, seed, !warm, samples);
            System.err.println();
            System.err.print(result.get("table"));
        } catch (Throwable e) {
            result = failed("characterize", scale, e);
        }
        return emit(result, outFile, out);
    }

    private static Map<String, Object> failed(String name, Scale scale, Throwable e) {
        System.err.println("error: " + name + " failed: " + e);
        e.printStackTrace(System.err);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workload", name);
        m.put("scale", scale.factor());
        m.put("ok", false);
        m.put("error", String.valueOf(e));
        m.put("phases", java.util.List.of());
        return m;
    }

    private static int emit(Map<String, Object> result, String outFile, PrintStream out) {
        String json = Json.write(result) + "\n";
        boolean ok = Boolean.TRUE.equals(result.get("ok"));
        if (outFile == null) {
            out.print(json);
            out.flush();
        } else {
            try {
                Path p = Path.of(outFile).toAbsolutePath();
                if (p.getParent() != null) Files.createDirectories(p.getParent());
                Files.writeString(p, json, StandardCharsets.UTF_8);
            } catch (IOException e) {
                System.err.println("error: cannot write " + outFile + ": " + e.getMessage());
                return 1;
            }
        }
        return ok ? 0 : 1;
    }

    private static int fail(String what, Exception e) {
        System.err.println("error: " + what + " failed: " + e);
        e.printStackTrace(System.err);
        return 1;
    }

    private static int info(Args a, PrintStream out) {
        a.rejectUnused();
        out.print(USAGE);
        out.println();
        out.println("defaults:");
        out.printf("  build-index: seed=%d vocab=%d exponent(head)=%.2f tail-exponent=%.2f stop-words=%d doc-words=%d segments=%d%n",
                BuildParams.DEFAULT_SEED, BuildParams.DEFAULT_VOCAB, BuildParams.DEFAULT_HEAD_EXPONENT,
                BuildParams.DEFAULT_TAIL_EXPONENT, BuildParams.DEFAULT_STOP_WORDS, BuildParams.DEFAULT_DOC_WORDS,
                BuildParams.DEFAULT_SEGMENTS);
        ZipfVocabulary v = new ZipfVocabulary(BuildParams.DEFAULT_VOCAB, BuildParams.DEFAULT_HEAD_EXPONENT,
                BuildParams.DEFAULT_TAIL_EXPONENT, BuildParams.DEFAULT_STOP_WORDS);
        out.printf("  vocabulary shape: top 1%% of words = %.1f%% of occurrences, bottom 91%% = %.2f%% (paper Fig. 6: 80%%, 1%%)%n",
                100 * v.topShare(0.01), 100 * v.bottomShare(0.91));
        out.printf("  run: scale=%s seed=%d batch-rate=%s batches/s batch-size=%d x <large clients>%n",
                Scale.DEFAULT_FACTOR, RunOptions.DEFAULT_SEED, RunOptions.DEFAULT_BATCH_RATE,
                RunOptions.BATCHES_PER_CLIENT);
        out.println();
        out.println("workloads:");
        for (Workload w : Workload.values()) out.printf("  %-6s %s%n", w.name(), w.describe());
        out.println();
        out.println("scale table (paper = F 1; counts round, with at least 2 clients and 1 query):");
        double[] factors = {1.0, 0.25, Scale.DEFAULT_FACTOR, 0.05, 0.02, 0.01};
        out.printf("  %-28s", "F");
        for (double f : factors) out.printf("%10s", f == Scale.DEFAULT_FACTOR ? f + "*" : String.valueOf(f));
        out.println();
        row(out, "clients (sequential)", factors, s -> s.clients());
        row(out, "small clients (M3/M4)", factors, Scale::smallClients);
        row(out, "large clients (M3/M4)", factors, Scale::largeClients);
        for (QueryKind k : QueryKind.values()) row(out, k.name() + " queries", factors, s -> s.queries(k));
        row(out, "ingest docs (ours)", factors, Scale::ingestDocs);
        row(out, "search-after-ingest (ours)", factors, Scale::searchQueries);
        row(out, "alloc/phases MiB per phase", factors,
                sc -> AllocWorkload.Config.defaults().allocFor(sc) >> 20);
        row(out, "phases reads per io phase", factors,
                sc -> PhasesWorkload.Config.defaults(Path.of("x")).readsFor(sc));
        out.println("  * default");
        return 0;
    }

    private static void row(PrintStream out, String label, double[] factors, java.util.function.ToLongFunction<Scale> f) {
        out.printf("  %-28s", label);
        for (double x : factors) out.printf("%10d", f.applyAsLong(new Scale(x, null)));
        out.println();
    }
}
