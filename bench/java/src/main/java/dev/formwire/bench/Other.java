package dev.formwire.bench;

import dev.formwire.multipart.MultipartEncoder;
import dev.formwire.urlencoded.Urlencoded;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.hc.client5.http.entity.mime.HttpMultipartMode;
import org.apache.hc.client5.http.entity.mime.MultipartEntityBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpEntity;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ReactiveHttpInputMessage;
import org.springframework.http.codec.FormHttpMessageReader;
import org.springframework.util.MultiValueMap;
import reactor.core.publisher.Flux;

/** W4 (urlencoded parse) and W5 (multipart serialize). */
final class Other {
    private Other() {}

    static long formwireUrlencoded(byte[] body) {
        List<Map.Entry<String, String>> pairs = Urlencoded.parse(body, new dev.formwire.urlencoded.UrlencodedOptions()
                .maxPairs(dev.formwire.urlencoded.UrlencodedOptions.UNLIMITED));
        return pairs.size();
    }

    static long springUrlencoded(byte[] body) {
        HttpHeaders h = new HttpHeaders();
        h.setContentType(MediaType.APPLICATION_FORM_URLENCODED);
        ReactiveHttpInputMessage msg = new ReactiveHttpInputMessage() {
            @Override
            public HttpHeaders getHeaders() {
                return h;
            }

            @Override
            public Flux<DataBuffer> getBody() {
                return Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(ByteBuffer.wrap(body)));
            }
        };
        FormHttpMessageReader r = new FormHttpMessageReader();
        r.setMaxInMemorySize(-1);
        MultiValueMap<String, String> m = r.readMono(ResolvableType.forClass(MultiValueMap.class), msg, Map.of()).block();
        long n = 0;
        for (List<String> v : m.values()) {
            n += v.size();
        }
        return n;
    }

    static byte[] formwireEncode(List<String[]> fields, byte[] blob) {
        MultipartEncoder e = MultipartEncoder.withBoundary(Inputs.BOUNDARY);
        for (String[] f : fields) {
            e.text(f[0], f[1]);
        }
        e.file("file", "blob.bin", "application/octet-stream", blob);
        return e.toByteArray();
    }

    static byte[] httpclient5Encode(List<String[]> fields, byte[] blob) throws IOException {
        MultipartEntityBuilder b = MultipartEntityBuilder.create().setBoundary(Inputs.BOUNDARY)
                .setMode(HttpMultipartMode.STRICT);
        for (String[] f : fields) {
            b.addTextBody(f[0], f[1]);
        }
        b.addBinaryBody("file", blob, ContentType.APPLICATION_OCTET_STREAM, "blob.bin");
        HttpEntity entity = b.build();
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.max(32, entity.getContentLength()));
        entity.writeTo(out);
        return out.toByteArray();
    }
}
