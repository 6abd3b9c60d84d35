package v8_test

import (
	"errors"
	"fmt"

	formwire "github.com/formwire/formwire/go"
	"github.com/formwire/formwire/go/v8"
)

// Bytes from Node: v8.serialize({ a: [1, , 3], s: new Set(["x"]) }).
func ExampleDecode() {
	in := []byte{0xFF, 0x0F, 'o', '"', 1, 'a', 'a', 3, 'I', 0, 'I', 2, 'I', 4, 'I', 6, '@', 2, 3,
		'"', 1, 's', '\'', '"', 1, 'x', ',', 1, '{', 2}
	v, err := v8.Decode(in, nil)
	if err != nil {
		panic(err)
	}
	o := v.(*v8.Object)
	a := o.Props[0].Value.(*v8.Array)
	fmt.Println(o.Props[0].Key, a.Length, a.Items)
	fmt.Println(o.Props[1].Key, o.Props[1].Value.(*v8.Set).Values)
	out, _ := v8.Encode(v, nil)
	fmt.Printf("%x\n", out)

	_, err = v8.Decode(in[:10], nil)
	var fe *formwire.Error
	fmt.Println(errors.As(err, &fe), fe.Code, fe.Offset, fe.Status())
	// Output:
	// a 3 [{0 1} {2 3}]
	// s [x]
	// ff0f6f22016161034900490249044906400203220173272201782c017b02
	// true SC_TRUNCATED 10 400
}
