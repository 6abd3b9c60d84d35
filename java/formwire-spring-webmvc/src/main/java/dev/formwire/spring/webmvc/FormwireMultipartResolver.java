package dev.formwire.spring.webmvc;

import dev.formwire.FormwireException;
import dev.formwire.multipart.FormData;
import dev.formwire.multipart.MultipartOptions;
import jakarta.servlet.http.HttpServletRequest;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.multipart.MultipartHttpServletRequest;
import org.springframework.web.multipart.MultipartResolver;
import org.springframework.web.multipart.support.DefaultMultipartHttpServletRequest;

/**
 * A Spring MVC {@link MultipartResolver} that parses with formwire instead of the servlet container: declare it as
 * the bean named {@code multipartResolver} (and turn the container's multipart handling off,
 * {@code spring.servlet.multipart.enabled=false} with Boot), handlers keep {@code @RequestParam MultipartFile}.
 *
 * <p>Fields become request parameters (MP-F-01), files {@link MultipartFile}s kept in memory up to the spill
 * threshold and in owner-only temporary files beyond, deleted by {@link #cleanupMultipart}. A limit is
 * {@link MaxUploadSizeExceededException} (413 in Spring MVC), malformed input a {@link MultipartException}; the
 * {@link FormwireException} (code, offset) is the cause.
 */
public final class FormwireMultipartResolver implements MultipartResolver {
    private final MultipartOptions options;
    private final FormData.Options spill;

    /** The strict profile with the default limits, files over 64 KiB on disk. */
    public FormwireMultipartResolver() {
        this(new MultipartOptions(), new FormData.Options());
    }

    /** With the given limits and spill settings. */
    public FormwireMultipartResolver(MultipartOptions options, FormData.Options spill) {
        this.options = options.clone();
        this.spill = spill;
    }

    @Override
    public boolean isMultipart(HttpServletRequest request) {
        String ct = request.getContentType();
        return ct != null && ct.toLowerCase(Locale.ROOT).startsWith("multipart/form-data");
    }

    @Override
    public MultipartHttpServletRequest resolveMultipart(HttpServletRequest request) throws MultipartException {
        FormData form;
        try {
            form = FormData.read(request.getInputStream(), request.getContentType(), options, spill);
        } catch (FormwireException e) {
            if (e.isLimit()) {
                throw new MaxUploadSizeExceededException(-1, e);
            }
            throw new MultipartException(e.getMessage(), e);
        } catch (IOException e) {
            throw new MultipartException("reading the multipart body failed", e);
        }
        MultiValueMap<String, MultipartFile> files = new LinkedMultiValueMap<>();
        Map<String, List<String>> values = new LinkedHashMap<>();
        Map<String, String> types = new LinkedHashMap<>();
        for (FormData.Entry e : form.entries()) {
            if (e.isFile()) {
                files.add(e.name(), new EntryFile(e));
                types.putIfAbsent(e.name(), e.type());
            } else {
                values.computeIfAbsent(e.name(), k -> new ArrayList<>()).add(e.value());
            }
        }
        Map<String, String[]> params = new LinkedHashMap<>();
        values.forEach((k, v) -> params.put(k, v.toArray(new String[0])));
        return new Request(request, files, params, types, form);
    }

    @Override
    public void cleanupMultipart(MultipartHttpServletRequest request) {
        if (request instanceof Request) {
            ((Request) request).form.close();
        }
    }

    /** The resolved request; keeps the form so its temporary files can be deleted. */
    static final class Request extends DefaultMultipartHttpServletRequest {
        final FormData form;

        Request(HttpServletRequest request, MultiValueMap<String, MultipartFile> files, Map<String, String[]> params,
                Map<String, String> types, FormData form) {
            super(request, files, params, types);
            this.form = form;
        }
    }

    /** A file entry as a {@link MultipartFile}. */
    static final class EntryFile implements MultipartFile {
        private final FormData.Entry entry;

        EntryFile(FormData.Entry entry) {
            this.entry = entry;
        }

        @Override
        public String getName() {
            return entry.name();
        }

        /** The filename as sent (MP-H-10): untrusted, never use it as a path. */
        @Override
        public String getOriginalFilename() {
            return entry.filename();
        }

        @Override
        public String getContentType() {
            return entry.type();
        }

        @Override
        public boolean isEmpty() {
            return entry.size() == 0;
        }

        @Override
        public long getSize() {
            return entry.size();
        }

        @Override
        public byte[] getBytes() throws IOException {
            try (InputStream in = entry.open()) {
                return in.readAllBytes();
            }
        }

        @Override
        public InputStream getInputStream() throws IOException {
            return entry.open();
        }

        @Override
        public void transferTo(File dest) throws IOException {
            transferTo(dest.toPath());
        }

        @Override
        public void transferTo(Path dest) throws IOException {
            try (InputStream in = entry.open()) {
                Files.copy(in, dest, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
