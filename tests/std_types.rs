//! Standard library wrappers and collections that are their contents in both formats: `Rc`,
//! `Arc`, `Cell`, `Wrapping`, `Saturating`, `Reverse`, `PhantomData`, `Rc<str>`, `Arc<str>`,
//! `LinkedList` and `BinaryHeap`. Each is written byte for byte as the type it wraps (or the
//! collection it holds as a `Vec`), reads back, and reads into an existing value as documented.

use std::cell::Cell;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, LinkedList};
use std::marker::PhantomData;
use std::num::{Saturating, Wrapping};
use std::rc::Rc;
use std::sync::Arc;

use structio::{from_beve, from_json, read_beve, read_json, to_beve, to_json, Reflect};

/// `value` is written in both formats exactly as `plain` is, and both read back equal.
fn same_as<T, P>(value: &T, plain: &P)
where
    T: for<'de> Reflect<'de> + Default + PartialEq + std::fmt::Debug,
    P: for<'de> Reflect<'de>,
{
    let (json, beve) = (to_json(value), to_beve(value));
    assert_eq!(json, to_json(plain));
    assert_eq!(beve, to_beve(plain));
    assert_eq!(&from_json::<T>(&json).unwrap(), value, "{json}");
    assert_eq!(&from_beve::<T>(&beve).unwrap(), value, "{json}");
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Inner {
    a: u32,
    b: Vec<String>,
}

#[test]
fn shared_pointers_are_their_value() {
    let inner = Inner {
        a: 7,
        b: vec!["x".into(), "é".into()],
    };
    same_as(&Rc::new(clone(&inner)), &inner);
    same_as(&Arc::new(clone(&inner)), &inner);
    same_as(&Rc::new(vec![1.5f64, 2.0]), &vec![1.5f64, 2.0]);
    // A vector of pointers is an array of values: in BEVE a generic one, not the typed array
    // of a `Vec<u8>` (each element is written on its own); it reads from either.
    let ptrs = vec![Arc::new(3u8), Arc::new(4)];
    assert_eq!(to_json(&ptrs), "[3,4]");
    assert_eq!(to_beve(&ptrs), to_beve(&(3u8, 4u8)));
    assert_eq!(from_beve::<Vec<Arc<u8>>>(&to_beve(&ptrs)).unwrap(), ptrs);
    assert_eq!(
        from_beve::<Vec<Arc<u8>>>(&to_beve(&vec![3u8, 4])).unwrap(),
        ptrs
    );
}

fn clone(i: &Inner) -> Inner {
    Inner {
        a: i.a,
        b: i.b.clone(),
    }
}

#[test]
fn a_unique_pointer_is_read_in_place_and_a_shared_one_is_replaced() {
    let mut unique = Rc::new(Inner {
        a: 1,
        b: vec!["kept".into()],
    });
    let before = Rc::as_ptr(&unique);
    // Under Glaze's rule (`error_on_missing_keys: false`), so that `b` may be left out.
    let glaze = structio::json::Options {
        read: structio::ReadOptions {
            error_on_missing_keys: false,
            ..Default::default()
        },
        ..Default::default()
    };
    structio::json::read_json_with(&mut unique, r#"{"a":2}"#, &glaze).unwrap();
    // Same allocation, and the member the document leaves out keeps its value.
    assert_eq!(Rc::as_ptr(&unique), before);
    assert_eq!(unique.a, 2);
    assert_eq!(unique.b, ["kept"]);

    let mut shared = Arc::new(Inner {
        a: 1,
        b: vec!["old".into()],
    });
    let other = Arc::clone(&shared);
    read_beve(&mut shared, &to_beve(&Inner { a: 5, b: vec![] })).unwrap();
    assert_eq!(
        *other,
        Inner {
            a: 1,
            b: vec!["old".into()]
        }
    );
    assert_eq!(*shared, Inner { a: 5, b: vec![] });
    assert!(!Arc::ptr_eq(&shared, &other));

    // A failed read leaves a shared pointer as it was.
    let mut shared = Rc::new(Inner::default());
    let _other = Rc::clone(&shared);
    assert!(read_json(&mut shared, r#"{"a":"no"}"#).is_err());
    assert_eq!(*shared, Inner::default());
}

#[test]
fn an_optional_inside_a_pointer_is_left_out_of_structs() {
    #[derive(Reflect, Default, Debug, PartialEq)]
    struct S {
        n: Rc<Option<u8>>,
        m: Arc<Option<u8>>,
        c: Cell<Option<u8>>,
    }
    let s = S {
        n: Rc::new(None),
        m: Arc::new(Some(2)),
        c: Cell::new(None),
    };
    assert_eq!(to_json(&s), r#"{"m":2}"#);
    assert_eq!(from_json::<S>(r#"{"m":2}"#).unwrap(), s);
    assert_eq!(from_beve::<S>(&to_beve(&s)).unwrap(), s);
}

#[test]
fn pointer_text_is_a_string_and_a_map_key() {
    same_as(&Rc::<str>::from("héllo"), &String::from("héllo"));
    same_as(&Arc::<str>::from(""), &String::new());
    // Vectors of them are BEVE string arrays, as `Vec<String>` is.
    let words = ["a", "b\"c", "\u{1F600}"];
    let rc: Vec<Rc<str>> = words.iter().map(|&w| w.into()).collect();
    let arc: Vec<Arc<str>> = words.iter().map(|&w| w.into()).collect();
    let plain: Vec<String> = words.iter().map(|&w| w.into()).collect();
    same_as(&rc, &plain);
    same_as(&arc, &plain);
    assert_eq!(to_beve(&rc)[0], 0x3C);

    let map: BTreeMap<Arc<str>, u32> = [("x".into(), 1), ("y".into(), 2)].into();
    let plain: BTreeMap<String, u32> = [("x".into(), 1), ("y".into(), 2)].into();
    same_as(&map, &plain);
    let map: HashMap<Rc<str>, Vec<u8>> = [("k".into(), vec![1, 2])].into();
    let plain: HashMap<String, Vec<u8>> = [("k".into(), vec![1, 2])].into();
    same_as(&map, &plain);

    // Reading into an existing map finds the key by its text: the same allocation stays.
    let mut map: HashMap<Rc<str>, u32> = [("k".into(), 1)].into();
    let key = Rc::clone(map.keys().next().unwrap());
    read_json(&mut map, r#"{"k":5}"#).unwrap();
    let (k, v) = map.iter().next().unwrap();
    assert!(Rc::ptr_eq(k, &key));
    assert_eq!(*v, 5);

    // Integer keys are not text.
    let err = from_beve::<BTreeMap<Arc<str>, u8>>(&to_beve(&BTreeMap::from([(1u8, 2u8)])));
    assert!(err.unwrap_err().to_string().contains("string key"));
}

#[test]
fn cells_are_their_value() {
    same_as(&Cell::new(3.25f32), &3.25f32);
    same_as(&Cell::new(Some(-1i64)), &Some(-1i64));
    let mut c = Cell::new(1u16);
    read_beve(&mut c, &to_beve(&9u16)).unwrap();
    assert_eq!(c.get(), 9);
    assert!(read_json(&mut c, "70000").is_err());
    assert_eq!(c.get(), 9);
}

#[test]
fn transparent_wrappers_keep_the_bulk_paths() {
    let nums = vec![1u32, 2, 0xFFFF_FFFF];
    let wrapping: Vec<Wrapping<u32>> = nums.iter().copied().map(Wrapping).collect();
    let saturating: Vec<Saturating<u32>> = nums.iter().copied().map(Saturating).collect();
    let reverse: Vec<Reverse<u32>> = nums.iter().copied().map(Reverse).collect();
    same_as(&wrapping, &nums);
    same_as(&saturating, &nums);
    same_as(&reverse, &nums);
    // A BEVE typed array (header u32 + 3), not a generic array.
    assert_eq!(&to_beve(&wrapping)[..2], &[0x54, 3 << 2]);

    let arr = [Wrapping(1.5f64), Wrapping(-2.0)];
    same_as(&arr, &[1.5f64, -2.0]);
    same_as(&Wrapping(String::from("s")), &String::from("s"));
    same_as(&Reverse(Some(true)), &Some(true));
    same_as(&vec![Reverse(false), Reverse(true)], &vec![false, true]);

    // Reading into an existing Vec keeps its allocation; element types convert as for `T`.
    let mut v: Vec<Wrapping<u64>> = Vec::with_capacity(8);
    let cap_ptr = v.as_ptr();
    read_beve(&mut v, &to_beve(&nums)).unwrap();
    assert_eq!(v, [Wrapping(1u64), Wrapping(2), Wrapping(0xFFFF_FFFF)]);
    assert_eq!(v.as_ptr(), cap_ptr);
    let err = from_json::<Vec<Wrapping<u8>>>("[1,256]").unwrap_err();
    assert!(err.to_string().contains("out of range"), "{err}");
    assert!(err.to_string().contains("$[1]"), "{err}");
    let err = from_beve::<[Saturating<i8>; 2]>(&to_beve(&[1i8, 2, 3])).unwrap_err();
    assert!(err.to_string().contains("expected 2"), "{err}");
}

#[test]
fn phantom_data_is_null() {
    same_as(&PhantomData::<String>, &());
    assert_eq!(to_json(&PhantomData::<u8>), "null");
    assert!(from_json::<PhantomData<u8>>("0").is_err());
    #[derive(Reflect, Default, Debug, PartialEq)]
    struct Tagged<T> {
        id: u32,
        kind: PhantomData<T>,
    }
    let t = Tagged::<Vec<u8>> {
        id: 3,
        kind: PhantomData,
    };
    assert_eq!(to_json(&t), r#"{"id":3,"kind":null}"#);
    same_as(&t, &t);
}

#[test]
fn linked_lists_and_heaps_are_arrays() {
    let list: LinkedList<f64> = [1.0, 0.5, -3.0].into_iter().collect();
    same_as(&list, &vec![1.0f64, 0.5, -3.0]);
    let list: LinkedList<String> = ["a".to_string(), "b".into()].into_iter().collect();
    same_as(&list, &vec!["a".to_string(), "b".into()]);
    let mut list: LinkedList<u8> = [9, 9, 9].into_iter().collect();
    read_json(&mut list, "[1,2]").unwrap();
    assert_eq!(list.into_iter().collect::<Vec<_>>(), [1, 2]);

    // A heap is written in its internal order and read back as a heap of the same items.
    let heap: BinaryHeap<i32> = [3, 1, 4, 1, 5].into_iter().collect();
    let json = to_json(&heap);
    assert_eq!(json, to_json(&heap.as_slice().to_vec()));
    assert_eq!(to_beve(&heap), to_beve(&heap.as_slice().to_vec()));
    let back: BinaryHeap<i32> = from_json(&json).unwrap();
    assert_eq!(back.into_sorted_vec(), [1, 1, 3, 4, 5]);
    let back: BinaryHeap<i32> = from_beve(&to_beve(&heap)).unwrap();
    assert_eq!(back.into_sorted_vec(), [1, 1, 3, 4, 5]);
    let mut heap = heap;
    read_beve(&mut heap, &to_beve(&vec![7i32, 8])).unwrap();
    assert_eq!(heap.into_sorted_vec(), [7, 8]);
}
