package dev.formwire.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Thread CPU time per operation of every case (after warm-up, median of 5 rounds): on a shared machine this moves
 * much less with the other work than JMH's wall time. Prints {@code cpu <case> <ms/op>} lines.
 */
public final class CpuTime {
    private CpuTime() {}

    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    static void time(String name, int ops, Callable<?> c) throws Exception {
        for (int i = 0; i < Math.max(3, ops); i++) {
            c.call(); // warm-up
        }
        double[] r = new double[5];
        for (int k = 0; k < r.length; k++) {
            long t = MX.getCurrentThreadCpuTime();
            for (int i = 0; i < ops; i++) {
                c.call();
            }
            r[k] = (MX.getCurrentThreadCpuTime() - t) / 1e6 / ops;
        }
        java.util.Arrays.sort(r);
        System.out.printf("cpu %s %.3f%n", name, r[2]);
    }

    public static void main(String[] a) throws Exception {
        byte[] w1 = Inputs.read("w1.body");
        byte[] scratch = new byte[Inputs.CHUNK];
        int big = Math.max(1, (int) (200_000_000L / Math.max(1, w1.length)));
        time("w1_formwire", 2 * big, () -> Multipart.formwire(w1, false));
        time("w1_floor_arraycopy", 2 * big, () -> Multipart.arraycopy(w1, scratch));
        time("w1_jetty", big, () -> Multipart.jetty(w1));
        time("w1_netty", big, () -> Multipart.netty(w1));
        time("w1_commons_fileupload2", big, () -> Multipart.commons(w1, false));
        byte[] w2 = Inputs.read("w2.body");
        time("w2_formwire", 50, () -> Multipart.formwire(w2, true));
        time("w2_commons_fileupload2", 20, () -> Multipart.commons(w2, true));
        time("w2_spring", 3, () -> Multipart.spring(w2));
        byte[] w4 = Inputs.read("w4.txt");
        time("w4_formwire", 50, () -> Other.formwireUrlencoded(w4));
        time("w4_spring", 20, () -> Other.springUrlencoded(w4));
        List<String[]> fields = Inputs.fields();
        byte[] blob = Inputs.read("w5.blob");
        time("w5_formwire", 20, () -> Other.formwireEncode(fields, blob));
        time("w5_httpclient5", 20, () -> Other.httpclient5Encode(fields, blob));
    }
}
