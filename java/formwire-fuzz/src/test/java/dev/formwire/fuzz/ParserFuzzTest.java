package dev.formwire.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.formwire.FormwireException;
import dev.formwire.multipart.MultipartOptions;
import dev.formwire.multipart.MultipartParser;
import dev.formwire.urlencoded.UrlencodedOptions;
import dev.formwire.urlencoded.UrlencodedParser;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Chunking invariance under fuzzing (MP-P-08, UE-P-11): the same input fed whole, cut at one fuzzer-chosen point,
 * and byte by byte gives the same parts or the same error code and offset; nothing but a FormwireException escapes.
 *
 * <p>Input layout: {@code [flags][limits][cut][boundary length][boundary][body]} for multipart (flags and bits 1-4
 * of limits: one bit per lenient option of MP-R-02, twelve in all, in {@code seed-from-vectors}' order; limits: bit 0
 * sets small limits),
 * {@code [cut][limits][body]} for urlencoded. Seeds are the shared vectors ({@code seed-from-vectors}).
 */
class ParserFuzzTest {
    @FuzzTest(maxDuration = "10m")
    void multipartChunking(byte[] data) {
        if (data.length < 5) {
            return;
        }
        int o = data[0] & 0xFF;
        int bl = Math.min(data[3] & 0xFF, data.length - 4);
        byte[] boundary = Arrays.copyOfRange(data, 4, 4 + bl);
        byte[] body = Arrays.copyOfRange(data, 4 + bl, data.length);
        MultipartOptions opts = new MultipartOptions().allowLf((o & 1) != 0).allowPreamble((o & 2) != 0)
                .allowObsFold((o & 4) != 0).allowQuotedPairs((o & 8) != 0).allowMissingDisposition((o & 16) != 0)
                .allowAnyDispositionType((o & 32) != 0).allowJunkAfterClose((o & 64) != 0)
                .allowUtf8HeaderNames((o & 128) != 0).allowCr((data[1] & 2) != 0)
                .allowNearDelimiters((data[1] & 4) != 0).allow8bitParameterNames((data[1] & 8) != 0)
                .allowRfc2231Continuations((data[1] & 16) != 0);
        if ((data[1] & 1) != 0) {
            opts.maxParts(3).maxHeaders(2).maxHeaderBytes(64).maxFieldBytes(16).maxFileBytes(32).maxTotalFieldBytes(24)
                    .maxTotalBytes(200);
        }
        String whole = run(boundary, body, opts, new int[0]);
        if (body.length > 1) {
            int cut = 1 + (data[2] & 0xFF) * (body.length - 1) / 256;
            assertEquals(whole, run(boundary, body, opts, new int[] {cut}), "cut at " + cut);
        }
        if (body.length <= 2048) {
            int[] all = new int[Math.max(0, body.length - 1)];
            for (int i = 0; i < all.length; i++) {
                all[i] = i + 1;
            }
            assertEquals(whole, run(boundary, body, opts, all), "byte by byte");
        }
    }

    private static String run(byte[] boundary, byte[] body, MultipartOptions opts, int[] cuts) {
        StringBuilder sb = new StringBuilder();
        try {
            MultipartParser p = new MultipartParser(boundary, opts);
            int prev = 0;
            for (int k = 0; k <= cuts.length; k++) {
                int next = k < cuts.length ? cuts[k] : body.length;
                p.feed(ByteBuffer.wrap(body, prev, next - prev));
                drain(p, sb);
                prev = next;
            }
            p.finish();
            drain(p, sb);
        } catch (FormwireException e) {
            // The result of a failing parse is the error alone: how much body was handed out before it depends on
            // the chunking (events stream), the error and its offset do not.
            return "error " + e.code() + " " + e.offset();
        }
        return sb.toString();
    }

    private static void drain(MultipartParser p, StringBuilder sb) {
        for (MultipartParser.Event e; (e = p.next()) != MultipartParser.Event.NEED_INPUT; ) {
            switch (e) {
                case PART_START:
                    sb.append("part ").append(p.part().name()).append('|').append(p.part().filename()).append('|')
                            .append(p.part().headers().size()).append('\n');
                    break;
                case DATA: {
                    ByteBuffer d = p.data();
                    while (d.hasRemaining()) {
                        sb.append(Integer.toHexString(d.get() & 0xFF)).append(' ');
                    }
                    break;
                }
                case PART_END:
                    sb.append("end\n");
                    break;
                default:
                    sb.append("close\n");
            }
        }
    }

    @FuzzTest(maxDuration = "10m")
    void urlencodedChunking(byte[] data) {
        if (data.length < 2) {
            return;
        }
        byte[] body = Arrays.copyOfRange(data, 2, data.length);
        UrlencodedOptions opts = new UrlencodedOptions();
        if ((data[1] & 1) != 0) {
            opts.maxPairs((data[1] & 0xFF) >> 4).maxBytes(Math.max(0, body.length - ((data[1] >> 1) & 7)));
        }
        String whole = ue(body, opts, new int[0]);
        if (body.length > 1) {
            int cut = 1 + (data[0] & 0xFF) * (body.length - 1) / 256;
            assertEquals(whole, ue(body, opts, new int[] {cut}), "cut at " + cut);
        }
        if (body.length <= 2048) {
            int[] all = new int[Math.max(0, body.length - 1)];
            for (int i = 0; i < all.length; i++) {
                all[i] = i + 1;
            }
            assertEquals(whole, ue(body, opts, all), "byte by byte");
        }
    }

    private static String ue(byte[] body, UrlencodedOptions opts, int[] cuts) {
        StringBuilder sb = new StringBuilder();
        try {
            UrlencodedParser p = new UrlencodedParser(opts);
            int prev = 0;
            for (int k = 0; k <= cuts.length; k++) {
                int next = k < cuts.length ? cuts[k] : body.length;
                p.feed(ByteBuffer.wrap(body, prev, next - prev));
                for (Map.Entry<String, String> e; (e = p.next()) != null; ) {
                    sb.append(e.getKey()).append('=').append(e.getValue()).append('&');
                }
                prev = next;
            }
            p.finish();
            for (Map.Entry<String, String> e; (e = p.next()) != null; ) {
                sb.append(e.getKey()).append('=').append(e.getValue()).append('&');
            }
        } catch (FormwireException e) {
            // UE-L-05: pairs before the error are not part of the result.
            return "error " + e.code() + " " + e.offset();
        }
        return sb.toString();
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
