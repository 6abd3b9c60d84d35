"""spec/multipart.md §8 probe: python-multipart FormParser. python python_multipart_probe.py <cases-dir>"""
import json, io, sys
from python_multipart.multipart import MultipartParser, parse_options_header
from python_multipart import FormParser
idx = json.load(open(sys.argv[1] + '/index.json'))
res = {}
for k, ct in idx.items():
    body = open(f'{sys.argv[1]}/{k}.bin','rb').read()
    out = []
    try:
        ctype, params = parse_options_header(ct)
        boundary = params.get(b'boundary')
        cur = {}
        def on_field(f): out.append([f.field_name.decode('latin1') if f.field_name is not None else None, (f.value or b'').decode('latin1')])
        def on_file(f): out.append([f.field_name.decode('latin1') if f.field_name is not None else None, {"filename": f.file_name.decode('latin1') if f.file_name else f.file_name, "body": f.file_object.getvalue().decode('latin1') if hasattr(f.file_object,'getvalue') else '?'}])
        fp = FormParser(ctype.decode(), on_field, on_file, boundary=boundary)
        fp.write(body); fp.finalize()
        res[k] = {"entries": out}
    except Exception as e:
        res[k] = {"error": type(e).__name__ + ": " + str(e)[:80], "entries": out}
print("{" + ",\n".join(json.dumps(k)+":"+json.dumps(v) for k,v in res.items()) + "}")
