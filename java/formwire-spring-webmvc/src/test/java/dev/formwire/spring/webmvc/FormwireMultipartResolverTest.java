package dev.formwire.spring.webmvc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import dev.formwire.multipart.FormData;
import dev.formwire.multipart.MultipartEncoder;
import dev.formwire.multipart.MultipartOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.multipart.MultipartHttpServletRequest;

class FormwireMultipartResolverTest {
    static MockHttpServletRequest request(MultipartEncoder form) {
        MockHttpServletRequest r = new MockHttpServletRequest("POST", "/upload");
        r.setContentType(form.contentType());
        r.setContent(form.toByteArray());
        return r;
    }

    static long files(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    @Test
    void fieldsAreParametersAndFilesAreMultipartFiles(@TempDir Path dir) throws Exception {
        byte[] big = new byte[300_000];
        new java.util.Random(5).nextBytes(big);
        MultipartEncoder form = new MultipartEncoder().text("title", "h\u00e9llo").text("tag", "a").text("tag", "b")
                .file("doc", "d.bin", "application/x", big).file("small", "s.txt", "", "hi".getBytes());
        FormwireMultipartResolver resolver = new FormwireMultipartResolver(new MultipartOptions(),
                new FormData.Options().tempDir(dir));
        MockHttpServletRequest raw = request(form);
        assertTrue(resolver.isMultipart(raw));
        MultipartHttpServletRequest req = resolver.resolveMultipart(raw);
        assertEquals("h\u00e9llo", req.getParameter("title"));
        assertArrayEquals(new String[] {"a", "b"}, req.getParameterValues("tag"));
        MultipartFile doc = req.getFile("doc");
        assertEquals("d.bin", doc.getOriginalFilename());
        assertEquals("application/x", doc.getContentType());
        assertArrayEquals(big, doc.getBytes());
        assertEquals("application/octet-stream", req.getFile("small").getContentType());
        Path dest = dir.resolve("out");
        Files.createDirectories(dest);
        doc.transferTo(dest.resolve("doc"));
        assertArrayEquals(big, Files.readAllBytes(dest.resolve("doc")));
        assertEquals(2, files(dir)); // the spilled file and the out directory
        resolver.cleanupMultipart(req);
        assertEquals(1, files(dir));
    }

    @Test
    void limitsAreMaxUploadSizeExceededAndMalformedBodiesMultipartExceptions() {
        MultipartEncoder form = new MultipartEncoder();
        for (int i = 0; i < 5; i++) {
            form.text("f" + i, "v");
        }
        FormwireMultipartResolver resolver = new FormwireMultipartResolver(new MultipartOptions().maxParts(4),
                new FormData.Options());
        MaxUploadSizeExceededException e = assertThrows(MaxUploadSizeExceededException.class,
                () -> resolver.resolveMultipart(request(form)));
        assertEquals(ErrorCode.MP_LIMIT_PARTS, ((FormwireException) e.getCause()).code());
        MockHttpServletRequest bad = new MockHttpServletRequest("POST", "/");
        bad.setContentType("multipart/form-data; boundary=b");
        bad.setContent("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv".getBytes());
        MultipartException m = assertThrows(MultipartException.class, () -> resolver.resolveMultipart(bad));
        assertFalse(m instanceof MaxUploadSizeExceededException);
        assertEquals(ErrorCode.MP_TRUNCATED, ((FormwireException) m.getCause()).code());
        MockHttpServletRequest json = new MockHttpServletRequest("POST", "/");
        json.setContentType("application/json");
        assertFalse(resolver.isMultipart(json));
    }
}
