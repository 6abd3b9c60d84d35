package dev.formwire.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** JMH: average time per operation, one whole workload per operation. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FormBench {
    /** W1: 2 fields and a 200 MiB file part. */
    @State(Scope.Benchmark)
    public static class W1 {
        byte[] body;
        byte[] scratch = new byte[Inputs.CHUNK];

        @Setup
        public void load() {
            body = Inputs.read("w1.body");
        }
    }

    /** W2: 10,000 fields. */
    @State(Scope.Benchmark)
    public static class W2 {
        byte[] body;

        @Setup
        public void load() {
            body = Inputs.read("w2.body");
        }
    }

    /** W4: 1 MiB urlencoded. */
    @State(Scope.Benchmark)
    public static class W4 {
        byte[] body;

        @Setup
        public void load() {
            body = Inputs.read("w4.txt");
        }
    }

    /** W5: 1,000 fields and a 10 MiB blob to serialize. */
    @State(Scope.Benchmark)
    public static class W5 {
        List<String[]> fields;
        byte[] blob;

        @Setup
        public void load() {
            fields = Inputs.fields();
            blob = Inputs.read("w5.blob");
        }
    }

    @Benchmark
    public long[] w1_formwire(W1 s) {
        return Multipart.formwire(s.body, false);
    }

    @Benchmark
    public long[] w1_commons_fileupload2(W1 s) throws Exception {
        return Multipart.commons(s.body, false);
    }

    @Benchmark
    public long[] w1_netty(W1 s) {
        return Multipart.netty(s.body);
    }

    @Benchmark
    public long[] w1_jetty(W1 s) {
        return Multipart.jetty(s.body);
    }

    @Benchmark
    public long[] w1_floor_arraycopy(W1 s) {
        return Multipart.arraycopy(s.body, s.scratch);
    }

    @Benchmark
    public long[] w2_formwire(W2 s) {
        return Multipart.formwire(s.body, true);
    }

    @Benchmark
    public long[] w2_commons_fileupload2(W2 s) throws Exception {
        return Multipart.commons(s.body, true);
    }

    @Benchmark
    public long[] w2_spring(W2 s) {
        return Multipart.spring(s.body);
    }

    @Benchmark
    public long w4_formwire(W4 s) {
        return Other.formwireUrlencoded(s.body);
    }

    @Benchmark
    public long w4_spring(W4 s) {
        return Other.springUrlencoded(s.body);
    }

    @Benchmark
    public byte[] w5_formwire(W5 s) {
        return Other.formwireEncode(s.fields, s.blob);
    }

    @Benchmark
    public byte[] w5_httpclient5(W5 s) throws Exception {
        return Other.httpclient5Encode(s.fields, s.blob);
    }
}
