package v8

import (
	"strings"
	"testing"
)

// Benchmarks of decode + encode on values shaped like the clone workloads of BENCHMARKS.md (W6a-W6d):
//   go test ./v8 -run '^$' -bench . -benchmem

func w6Values() map[string]Value {
	objs := &Array{}
	for i := 0; i < 100; i++ {
		o := &Object{Props: []Property{
			{"name", "user-" + strings.Repeat("0", 4-len(itoa(i))) + itoa(i)},
			{"age", float64(18 + i%62)},
			{"active", i%3 == 0},
		}}
		objs.Items = append(objs.Items, Item{uint32(i), o})
	}
	objs.Length = 100
	obj := func(kv ...any) *Object {
		o := &Object{}
		for i := 0; i < len(kv); i += 2 {
			o.Props = append(o.Props, Property{kv[i].(string), kv[i+1]})
		}
		return o
	}
	arr := func(vs ...Value) *Array {
		a := &Array{Length: uint32(len(vs))}
		for i, v := range vs {
			a.Items = append(a.Items, Item{uint32(i), v})
		}
		return a
	}
	config := obj(
		"service", obj("name", "formwire-gateway", "version", "1.4.2", "region", "eu-west-3", "replicas", 3.0),
		"http", obj("host", "0.0.0.0", "port", 8443.0, "tls", obj("enabled", true, "cert", "/etc/tls/server.pem",
			"key", "/etc/tls/server.key", "protocols", arr("TLSv1.2", "TLSv1.3")),
			"timeouts", obj("read", 30000.0, "write", 30000.0, "idle", 120000.0)),
		"limits", obj("max_parts", 1000.0, "max_headers", 8.0, "max_header_bytes", 8192.0, "max_field_bytes",
			1048576.0, "max_file_bytes", 10737418240.0, "max_pairs", 10000.0),
		"features", arr("streaming", "strict", "limits", "clone", "urlencoded"),
		"log", obj("level", "info", "format", "json", "sampling", 0.25, "redact", arr("authorization", "cookie")),
		"upstreams", arr(obj("name", "storage", "url", "http://127.0.0.1:9000", "weight", 3.0, "healthy", true),
			obj("name", "index", "url", "http://127.0.0.1:9100", "weight", 1.0, "healthy", false)),
		"owner", obj("team", "platform", "contact", "platform@example.invalid", "oncall", Null{}),
	)
	big := make([]byte, 3000000)
	for i := range big {
		big[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i*2654435761)>>7&63]
	}
	return map[string]Value{"W6a": string(big), "W6b": objs, "W6c": "hello world", "W6d": config}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}

func BenchmarkDecodeEncode(b *testing.B) {
	vals := w6Values()
	for _, name := range []string{"W6a", "W6b", "W6c", "W6d"} {
		in, err := Encode(vals[name], nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			var buf []byte
			for i := 0; i < b.N; i++ {
				v, err := Decode(in, nil)
				if err != nil {
					b.Fatal(err)
				}
				if buf, err = AppendEncode(buf[:0], v, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	vals := w6Values()
	for _, name := range []string{"W6a", "W6b", "W6c", "W6d"} {
		in, err := Encode(vals[name], nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for i := 0; i < b.N; i++ {
				if _, err := Decode(in, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncode(b *testing.B) {
	vals := w6Values()
	for _, name := range []string{"W6a", "W6b", "W6c", "W6d"} {
		v := vals[name]
		b.Run(name, func(b *testing.B) {
			var buf []byte
			var err error
			for i := 0; i < b.N; i++ {
				if buf, err = AppendEncode(buf[:0], v, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(len(buf)))
		})
	}
}
