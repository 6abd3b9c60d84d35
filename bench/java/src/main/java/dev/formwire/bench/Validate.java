package dev.formwire.bench;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/**
 * Runs every case once and prints one line per case, {@code <case> ok} or {@code <case> FAIL <why>}, against the
 * expectations bench/run passes as arguments (from the manifest): W1 parts and body bytes, W2 parts and field bytes,
 * W4 pairs, W5 sha256 (formwire) and part count.
 */
public final class Validate {
    private Validate() {}

    static int failed;

    static void check(String name, boolean ok, String got) {
        System.out.println(name + (ok ? " ok " : " FAIL ") + got);
        if (!ok) {
            failed++;
        }
    }

    public static void main(String[] a) throws Exception {
        long w1Parts = Long.parseLong(a[0]);
        long w1Bytes = Long.parseLong(a[1]);
        long w2Parts = Long.parseLong(a[2]);
        long w2Bytes = Long.parseLong(a[3]);
        long w4Pairs = Long.parseLong(a[4]);
        String w5Sha = a[5];
        long w5Parts = Long.parseLong(a[6]);
        byte[] w1 = Inputs.read("w1.body");
        for (String impl : new String[] {"formwire", "commons_fileupload2", "netty", "jetty"}) {
            long[] r = impl.equals("formwire") ? Multipart.formwire(w1, false)
                    : impl.equals("commons_fileupload2") ? Multipart.commons(w1, false)
                    : impl.equals("netty") ? Multipart.netty(w1) : Multipart.jetty(w1);
            check("w1_" + impl, r[0] == w1Parts && r[1] == w1Bytes, r[0] + " parts " + r[1] + " bytes");
        }
        long[] f = Multipart.arraycopy(w1, new byte[Inputs.CHUNK]);
        check("w1_floor_arraycopy", f[1] == w1.length, f[1] + " bytes");
        w1 = null;
        byte[] w2 = Inputs.read("w2.body");
        for (String impl : new String[] {"formwire", "commons_fileupload2", "spring"}) {
            long[] r = impl.equals("formwire") ? Multipart.formwire(w2, true)
                    : impl.equals("commons_fileupload2") ? Multipart.commons(w2, true) : Multipart.spring(w2);
            check("w2_" + impl, r[0] == w2Parts && r[1] == w2Bytes && r[2] == w2Bytes,
                    r[0] + " parts " + r[1] + " bytes " + r[2] + " chars");
        }
        byte[] w4 = Inputs.read("w4.txt");
        long p1 = Other.formwireUrlencoded(w4);
        check("w4_formwire", p1 == w4Pairs, p1 + " pairs");
        long p2 = Other.springUrlencoded(w4);
        check("w4_spring", p2 == w4Pairs, p2 + " pairs");
        List<String[]> fields = Inputs.fields();
        byte[] blob = Inputs.read("w5.blob");
        byte[] fw = Other.formwireEncode(fields, blob);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(fw));
        check("w5_formwire", sha.equals(w5Sha), "sha256 " + sha);
        byte[] hc = Other.httpclient5Encode(fields, blob);
        String s = new String(hc, java.nio.charset.StandardCharsets.ISO_8859_1);
        long delims = s.split("--" + Inputs.BOUNDARY + "\r\n", -1).length - 1;
        check("w5_httpclient5", delims == w5Parts && s.endsWith("--" + Inputs.BOUNDARY + "--\r\n"), delims + " parts");
        System.exit(failed == 0 ? 0 : 1);
    }
}
